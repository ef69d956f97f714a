import { strict as assert } from "node:assert";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SessionStore } from "../../agent/store/session-store.js";
import type { StoredMessage } from "../../agent/store/store-records.js";
import { TempDirs } from "../helpers/temp-dirs.js";

const message = (seq: number, content: string): StoredMessage => ({
  seq,
  role: seq % 2 === 0 ? "user" : "assistant",
  content,
  timestamp: 1_700_000_000 + seq,
});

const meta = (id: string) => ({ id, cwd: "/srv/app", createdAt: 1_700_000_000, updatedAt: 1_700_000_000 });

describe("session store: journal first, database on demand", () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  it("writes a turn to the journal without loading the database; a listing loads it with everything", async () => {
    const home = dirs.make();
    const store = await SessionStore.open(home);
    store.createSession(meta("s1"));
    store.appendMessages("s1", [message(0, "hello"), message(1, "hi there")]);
    await store.flushed();
    assert.throws(() => store.database, /not loaded/, "a turn never needed sql.js");
    assert.equal(readdirSync(join(home, "sessions", "journal")).length, 1);
    assert.ok(!existsSync(join(home, "sessions", "sessions.sqlite")));
    await store.refresh();
    assert.deepEqual(
      store.loadMessages("s1").map((m) => m.content),
      ["hello", "hi there"],
    );
    store.appendMessages("s1", [message(2, "after the load")]);
    assert.equal(store.getSession("s1")?.messageCount, 3, "once loaded, a change is in the database at once");
  });

  it("misses no change made while the database is loading", async () => {
    const home = dirs.make();
    const store = await SessionStore.open(home);
    store.createSession(meta("s1"));
    let seq = 0;
    store.appendMessages("s1", [message(seq, `m${seq++}`)]);
    const loading = store.refresh();
    // Changes in the same tick and on every later macrotask until the load is done.
    store.appendMessages("s1", [message(seq, `m${seq++}`)]);
    let done = false;
    const writing = (async () => {
      while (!done) {
        store.appendMessages("s1", [message(seq, `m${seq++}`)]);
        await new Promise((r) => setImmediate(r));
      }
    })();
    await loading;
    done = true;
    await writing;
    assert.ok(seq > 5, `changes were made while loading (${seq})`);
    const contents = store.loadMessages("s1").map((m) => m.content);
    assert.deepEqual(
      contents,
      Array.from({ length: seq }, (_, i) => `m${i}`),
    );
  });

  it("compacts without keeping the database loaded, and another server reads the compacted file", async () => {
    const home = dirs.make();
    const store = await SessionStore.open(home);
    store.createSession(meta("s1"));
    store.appendMessages("s1", [message(0, "before compaction")]);
    await store.compact();
    assert.throws(() => store.database, /not loaded/);
    store.appendMessages("s1", [message(1, "after compaction")]);
    await store.flushed();
    assert.ok(existsSync(join(home, "sessions", "sessions.sqlite")));
    const other = await SessionStore.open(home);
    await other.refresh();
    assert.deepEqual(
      other.loadMessages("s1").map((m) => m.content),
      ["before compaction", "after compaction"],
    );
    assert.equal(other.listSessions({ limit: 10 }).length, 1);
  });

  it("keeps a loaded database current through a compaction", async () => {
    const home = dirs.make();
    const store = await SessionStore.open(home);
    store.createSession(meta("s1"));
    await store.refresh();
    store.appendMessages("s1", [message(0, "one")]);
    const compacting = store.compact();
    store.appendMessages("s1", [message(1, "two, during the compaction")]);
    await compacting;
    store.appendMessages("s1", [message(2, "three")]);
    assert.deepEqual(
      store.loadMessages("s1").map((m) => m.content),
      ["one", "two, during the compaction", "three"],
    );
    await store.refresh();
    assert.equal(store.getSession("s1")?.messageCount, 3);
  });
});

import { strict as assert } from "node:assert";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { JournalWriter, readJournal } from "../../agent/store/journal.js";
import { TempDirs } from "../helpers/temp-dirs.js";

const meta = (sessionId: string) => ({ t: "meta" as const, sessionId, title: `title of ${sessionId}`, updatedAt: 1 });

describe("journal writer: one open file, lines in order", () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  it("has every appended line in the file once flushed, at the offsets append returned", async () => {
    const file = join(dirs.make(), "server.ndjson");
    const writer = new JournalWriter(file);
    const offsets = ["a", "b", "c"].map((id) => writer.append(meta(id)));
    await writer.flushed();
    assert.equal(statSync(file).size, offsets[2]);
    const tail = await readJournal(file, 0);
    assert.deepEqual(
      tail.records.map((r) => (r.t === "meta" ? r.sessionId : "?")),
      ["a", "b", "c"],
    );
    // A reader that stopped after the first line picks up from its offset.
    const rest = await readJournal(file, offsets[0]!);
    assert.equal(rest.records.length, 2);
    writer.close();
  });

  it("reports a write that failed (its folder gone) once, and writes again when the folder is back", async () => {
    const dir = join(dirs.make(), "journal");
    mkdirSync(dir);
    const file = join(dir, "server.ndjson");
    const writer = new JournalWriter(file);
    writer.append(meta("before"));
    writer.close();
    rmSync(dir, { recursive: true });
    const sizeBefore = writer.size;
    assert.equal(writer.append(meta("lost")), sizeBefore, "a line not written moves no offset");
    await assert.rejects(writer.flushed(), /ENOENT/);
    await writer.flushed();
    mkdirSync(dir);
    writer.append(meta("after"));
    await writer.flushed();
    const tail = await readJournal(file, 0);
    assert.deepEqual(
      tail.records.map((r) => (r.t === "meta" ? r.sessionId : "?")),
      ["after"],
    );
    writer.close();
  });
});

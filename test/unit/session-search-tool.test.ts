import { strict as assert } from "node:assert";
import type { Database } from "sql.js";
import { openDatabase } from "../../agent/store/schema.js";
import { sessionSearchTool } from "../../agent/tools/session/session-search-tool.js";
import type { SessionDatabaseAccess, ToolResult } from "../../agent/tools/tool.js";
import { addSession } from "../helpers/session-rows.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";

type Json = Record<string, unknown>;
const WHEN =
  /^(January|February|March|April|May|June|July|August|September|October|November|December) \d\d, \d{4} at (0[1-9]|1[0-2]):\d\d [AP]M$/;

describe("session_search tool: the four shapes", () => {
  const dirs = new TempDirs();
  let home: string;
  let db: Database;
  let access: SessionDatabaseAccess;
  let ids: number[];
  const call = (args: Json, sessions: SessionDatabaseAccess | null = access): Promise<ToolResult> =>
    runTool(sessionSearchTool, args, Object.assign(toolEnvironment(home, home), sessions ? { sessions } : {}));
  const body = async (args: Json) => {
    const result = await call(args);
    assert.ok(!result.isError, result.content);
    return JSON.parse(result.content) as Json;
  };
  const error = async (args: Json) => {
    const result = await call(args);
    assert.ok(result.isError, `expected an error, got ${result.content}`);
    return result.content;
  };
  const list = (value: unknown) => value as Json[];

  before(async () => {
    home = dirs.make();
    db = await openDatabase();
    for (let i = 0; i < 12; i++)
      addSession(db, `s${i}`, [{ content: `terraform plan number ${i}` }, { role: "assistant", content: "ok" }], {
        at: 1_700_000_000 + i * 1000,
      });
    ids = addSession(
      db,
      "long",
      Array.from({ length: 50 }, (_, i) => ({ content: i === 25 ? "the kafka consumer lag" : `line ${i}` })),
      { title: "Kafka tuning" },
    );
    addSession(
      db,
      "current",
      [{ content: "kafka in the current session" }, { content: "pre-compaction kafka talk", active: 0 }],
      { at: 1_800_000_000 },
    );
    addSession(db, "current-fork", [{ content: "kafka in a fork of the current session" }], {
      parent: "current",
      at: 1_800_000_100,
    });
    addSession(db, "titled", [{ content: "we shipped it" }, { role: "assistant", content: "great" }], {
      title: "Deploy the ledger",
      at: 1_600_000_000,
    });
    addSession(db, "root", [{ content: "zookeeper quorum notes" }], { at: 1_650_000_000 });
    addSession(
      db,
      "child",
      [
        { content: "zookeeper quorum fixed" },
        { role: "tool", toolName: "terminal", content: "zookeeper restarted by systemd" },
      ],
      { parent: "root", at: 1_650_000_500 },
    );
    access = { database: async () => db, currentSessionId: "current" };
  });
  after(() => dirs.cleanup());

  it("answers with an error when the front end has no session store, or the store fails to open", async () => {
    assert.match((await call({ query: "kafka" }, null)).content, /not available in this front end/);
    const failing = await call({}, { database: () => Promise.reject(new Error("disk gone")), currentSessionId: "x" });
    assert.ok(failing.isError);
    assert.match(failing.content, /Could not open the session store: disk gone/);
  });

  it("DISCOVERY: the top result carries the ±5 window, bookends and a link; the current lineage is left out", async () => {
    const found = await body({ query: "kafka" });
    assert.deepEqual(
      [found.success, found.mode, found.query, found.detail, found.count, found.sessions_searched],
      [true, "discover", "kafka", "adaptive", 1, 1],
    );
    const [result] = list(found.results);
    assert.deepEqual(
      [result!.session_id, result!.title, result!.source, result!.matched_role, result!.match_message_id],
      ["long", "Kafka tuning", "acp", "user", ids[25]],
    );
    assert.deepEqual(
      [result!.detail, result!.link, result!.messages_before, result!.messages_after],
      ["full", "@session:default/long", 5, 5],
    );
    assert.match(String(result!.when), WHEN);
    assert.match(String(result!.snippet), />>>kafka<<</);
    const messages = list(result!.messages);
    assert.deepEqual(
      messages.map((m) => m.id),
      ids.slice(20, 31),
    );
    assert.deepEqual(messages[5], {
      id: ids[25],
      role: "user",
      content: "the kafka consumer lag",
      timestamp: 1_700_000_000 + 25 * 60,
      anchor: true,
    });
    assert.deepEqual(
      list(result!.bookend_start).map((m) => m.content),
      ["line 0", "line 1", "line 2"],
    );
    assert.deepEqual(
      list(result!.bookend_end).map((m) => m.content),
      ["line 47", "line 48", "line 49"],
    );
    assert.equal(found.results && list(found.results).some((r) => String(r.session_id).startsWith("current")), false);
  });

  it("DISCOVERY: limit defaults to 3 and is clamped to 1..10; adaptive detail keeps the others compact; detail=full hydrates all", async () => {
    const three = list((await body({ query: "terraform" })).results);
    assert.deepEqual(
      three.map((r) => r.detail),
      ["full", "compact", "compact"],
    );
    assert.deepEqual(
      list(three[1]!.messages).map((m) => m.anchor),
      [true],
      "a compact result is just the matched message",
    );
    assert.deepEqual([three[1]!.bookend_start, three[1]!.bookend_end], [[], []]);
    assert.equal(list((await body({ query: "terraform", limit: 50 })).results).length, 10);
    assert.equal(list((await body({ query: "terraform", limit: 0 })).results).length, 1);
    assert.equal(list((await body({ query: "terraform", limit: "4" })).results).length, 4);
    assert.deepEqual(
      list((await body({ query: "terraform", detail: "full" })).results).map((r) => r.detail),
      ["full", "full", "full"],
    );
  });

  it("DISCOVERY: sort newest | oldest, role_filter, parent_session_id, and the empty answers", async () => {
    assert.equal(list((await body({ query: "terraform", sort: "newest" })).results)[0]!.session_id, "s11");
    assert.equal(list((await body({ query: "terraform", sort: "Oldest" })).results)[0]!.session_id, "s0");
    const child = list((await body({ query: "zookeeper quorum fixed" })).results)[0]!;
    assert.deepEqual([child.session_id, child.parent_session_id], ["child", "root"]);
    assert.equal((await body({ query: "zookeeper" })).count, 1, "one result per lineage");
    const tool = list((await body({ query: "systemd", role_filter: "user,assistant,tool" })).results)[0]!;
    assert.deepEqual([tool.matched_role, list(tool.messages).find((m) => m.anchor)!.tool_name], ["tool", "terminal"]);
    const none = await body({ query: "systemd" });
    assert.deepEqual(
      [none.count, none.results, none.message],
      [0, [], "No matching sessions found."],
      "tool output is not searched by default",
    );
    assert.match(String((await body({ query: '"*"' })).message), /no searchable words/);
  });

  it("DISCOVERY: a query that is a session's title finds that session first", async () => {
    const found = await body({ query: '"Deploy the ledger"' });
    const [first] = list(found.results);
    assert.deepEqual(
      [first!.session_id, first!.matched_role, first!.snippet, first!.detail],
      ["titled", "session_title", "Session title matched: Deploy the ledger", "full"],
    );
    assert.deepEqual(
      list(first!.messages).map((m) => m.content),
      ["we shipped it", "great"],
    );
  });

  it("SCROLL: ±window around a message (default 5, clamped 1..20) with session_meta and boundary counts", async () => {
    const scroll = await body({ session_id: "long", around_message_id: ids[25] });
    assert.deepEqual(
      [scroll.mode, scroll.session_id, scroll.around_message_id, scroll.window],
      ["scroll", "long", ids[25], 5],
    );
    assert.deepEqual(
      list(scroll.messages).map((m) => m.id),
      ids.slice(20, 31),
    );
    assert.equal(list(scroll.messages)[5]!.anchor, true);
    assert.deepEqual([scroll.messages_before, scroll.messages_after, scroll.link], [5, 5, "@session:default/long"]);
    assert.deepEqual((scroll.session_meta as Json).title, "Kafka tuning");
    assert.match(String((scroll.session_meta as Json).when), WHEN);
    assert.equal(
      list((await body({ session_id: "long", around_message_id: ids[25], window: 100 })).messages).length,
      41,
    );
    const start = await body({ session_id: "long", around_message_id: ids[0], window: 0 });
    assert.deepEqual(
      [start.window, start.messages_before, start.messages_after, list(start.messages).length],
      [1, 0, 1, 2],
    );
    assert.equal((await body({ session_id: "long", around_message_id: String(ids[25]), window: "3" })).window, 3);
    assert.equal(
      (await body({ session_id: "@session:default/long", around_message_id: ids[25] })).session_id,
      "long",
      "a pasted link works",
    );
  });

  it("SCROLL: upstream's refusals and errors, and a message followed into the child session that holds it", async () => {
    assert.equal(
      await error({ session_id: "long", around_message_id: "abc" }),
      "scroll requires integer around_message_id",
    );
    assert.equal(await error({ session_id: "nope", around_message_id: ids[3] }), "session_id not found: nope");
    assert.equal(
      await error({ session_id: "s1", around_message_id: ids[3] }),
      `around_message_id ${ids[3]} not in session_id s1`,
    );
    const inContext = db.exec("SELECT id FROM messages WHERE session_id = 'current-fork'")[0]!.values[0]![0];
    assert.equal(
      await error({ session_id: "current-fork", around_message_id: inContext }),
      "scroll rejected: anchor lives in the current session lineage (already in your active context)",
    );
    const compacted = Number(
      db.exec("SELECT id FROM messages WHERE session_id = 'current' AND active = 0")[0]!.values[0]![0],
    );
    const old = await body({ session_id: "current", around_message_id: compacted });
    assert.equal(
      list(old.messages).find((m) => m.anchor)!.content,
      "pre-compaction kafka talk",
      "compacted out of the context, so it may be read",
    );
    const inChild = Number(db.exec("SELECT id FROM messages WHERE session_id = 'child' AND seq = 1")[0]!.values[0]![0]);
    const rebound = await body({ session_id: "root", around_message_id: inChild });
    assert.equal(rebound.session_id, "child");
    assert.equal(rebound.warning, `around_message_id ${inChild} lives in child (child of root); rebound transparently`);
  });

  it("READ: a whole short session; the first 20 and last 10 of a long one, with upstream's pointer", async () => {
    const long = await body({ session_id: "long" });
    assert.deepEqual(
      [long.mode, long.session_id, long.link, long.message_count, long.truncated],
      ["read", "long", "@session:default/long", 50, true],
    );
    assert.deepEqual(
      list(long.messages).map((m) => m.id),
      [...ids.slice(0, 20), ...ids.slice(40)],
    );
    assert.equal(
      long.message,
      "Session has 50 messages; showing first 20 + last 10. Pass around_message_id (any id above) to scroll the middle.",
    );
    const short = await body({ session_id: "default/titled" });
    assert.deepEqual([short.truncated, list(short.messages).length, "message" in short], [false, 2, false]);
    assert.equal(((await body({ session_id: "@session:titled" })).session_meta as Json).title, "Deploy the ledger");
    assert.equal(await error({ session_id: "missing" }), "session_id not found: missing");
  });

  it("BROWSE: the most recent sessions (default 3, clamped to 10), not the current one", async () => {
    const recent = await body({});
    assert.deepEqual([recent.mode, recent.count], ["browse", 3]);
    assert.equal(
      recent.message,
      "Showing 3 most recent sessions. Pass a query= to search, or session_id+around_message_id to scroll.",
    );
    const [first] = list(recent.results);
    assert.deepEqual(
      [first!.session_id, first!.link, first!.preview, first!.message_count],
      ["current-fork", "@session:default/current-fork", "kafka in a fork of the current session", 1],
    );
    assert.ok(list(recent.results).every((r) => r.session_id !== "current"));
    assert.equal(list((await body({ limit: 50 })).results).length, 10);
    assert.equal(
      list((await body({ around_message_id: 5 })).results).length,
      3,
      "an anchor without a session is ignored, as upstream",
    );
  });
});

import { strict as assert } from "node:assert";
import { tmpdir } from "node:os";
import type { Database } from "sql.js";
import { bm25, idf, parseMatchinfo } from "../../agent/store/bm25.js";
import { buildFtsQuery } from "../../agent/store/fts-query.js";
import { openDatabase } from "../../agent/store/schema.js";
import { browseSessions, readSession, scrollAround, searchMessages } from "../../agent/store/session-search.js";
import { sessionSearchTool } from "../../agent/tools/session/session-search-tool.js";
import type { SessionDatabaseAccess, ToolResult } from "../../agent/tools/tool.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";

interface Msg {
  role?: string;
  content: string | null;
  toolName?: string;
  toolCalls?: unknown;
  active?: 0 | 1;
}
interface SessionOptions {
  title?: string;
  parent?: string;
  source?: string;
  at?: number;
}

/** Inserts a session and its messages (seq 0..n, one minute apart from `at`); returns the message ids. */
function addSession(db: Database, id: string, messages: Msg[], options: SessionOptions = {}): number[] {
  const at = options.at ?? 1_700_000_000;
  db.run("INSERT INTO sessions(id, source, cwd, title, created_at, updated_at, parent_session_id) VALUES (?, ?, ?, ?, ?, ?, ?)", [
    id, options.source ?? "acp", `/work/${id}`, options.title ?? `Title of ${id}`, at, at + 60 * messages.length, options.parent ?? null,
  ]);
  return messages.map((m, seq) => {
    db.run("INSERT INTO messages(session_id, seq, role, content, tool_name, tool_calls, timestamp, active) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
      id, seq, m.role ?? "user", m.content, m.toolName ?? null, m.toolCalls === undefined ? null : JSON.stringify(m.toolCalls), at + 60 * seq, m.active ?? 1,
    ]);
    return Number(db.exec("SELECT last_insert_rowid()")[0]!.values[0]![0]);
  });
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 17} filler`).join(" ");
const search = (db: Database, query: string, extra: Partial<Parameters<typeof searchMessages>[1]> = {}) => searchMessages(db, { query, limit: 10, ...extra });

describe("bm25 from matchinfo 'pcnalx'", () => {
  // 1 phrase, 2 columns, 10 rows; average lengths 10 and 1; this row: content 5 tokens with 2 hits, tool_name empty;
  // the phrase occurs 4 times in 3 rows. By hand: idf = ln(1 + 7.5/3.5) = 1.145132; length norm = 0.25 + 0.75·5/10
  // = 0.625; tf part = 2·2.2 / (2 + 1.2·0.625) = 4.4/2.75 = 1.6; score = 1.0 · 1.145132 · 1.6 = 1.832212.
  const example = [1, 2, 10, 10, 1, 5, 0, 2, 4, 3, 0, 0, 0];

  it("matches a hand-computed example", () => {
    assert.ok(Math.abs(bm25(example) - 1.832212) < 1e-6, String(bm25(example)));
    assert.ok(Math.abs(idf(10, 3) - 1.145132) < 1e-6);
  });

  it("reads sql.js's little-endian blob, even unaligned, and weighs tool_name hits at half", () => {
    const buffer = new ArrayBuffer(1 + example.length * 4);
    const view = new DataView(buffer);
    example.forEach((v, i) => view.setUint32(1 + i * 4, v, true));
    assert.equal(bm25(new Uint8Array(buffer, 1)), bm25(example));
    assert.deepEqual(parseMatchinfo(example).rowLength, [5, 0]);
    // The same hit counted in tool_name (a column of the same average length) scores half.
    const inToolName = [1, 2, 10, 10, 10, 0, 5, 0, 0, 0, 2, 4, 3];
    assert.ok(Math.abs(bm25(inToolName) - bm25(example) / 2) < 1e-9);
    assert.throws(() => bm25([2, 2, 10]));
  });
});

describe("FTS4 query building", () => {
  it("keeps phrases, prefixes the last word and starred words, handles OR / NOT / minus", () => {
    assert.equal(buildFtsQuery("docker compose"), '"docker" "compose*"');
    assert.equal(buildFtsQuery('"exact phrase" word'), '"exact phrase" "word*"');
    assert.equal(buildFtsQuery('word "exact phrase"'), '"word" "exact phrase"');
    assert.equal(buildFtsQuery("migrat* tests."), '"migrat*" "tests*"');
    assert.equal(buildFtsQuery("tabs OR spaces config"), '("tabs" OR "spaces") "config*"');
    assert.equal(buildFtsQuery("error -warning"), '"error" NOT "warning"');
    assert.equal(buildFtsQuery("NOT warning error AND fatal"), '("error" "fatal*") NOT "warning"');
    assert.equal(buildFtsQuery("session-store.ts x"), '"session store ts" "x"');
    assert.equal(buildFtsQuery("数据库"), '"数据库*"');
    assert.equal(buildFtsQuery("AND AND foo NEAR/3 bar"), '"foo" "bar*"');
  });

  it("returns undefined when nothing searchable remains", () => {
    for (const input of ['"', "*", "(", ")", "NEAR/", "AND AND", "OR", "NOT", "-", '""', "-foo", "🙂💥", "\u0301", "  ", "NOT foo"]) {
      assert.equal(buildFtsQuery(input), undefined, JSON.stringify(input));
    }
  });

  it("never makes MATCH throw, whatever the input", async () => {
    const db = await openDatabase();
    addSession(db, "s", [{ content: "hello world 数据库 résumé" }]);
    const alphabet = ['"', "*", "(", ")", ":", "^", "-", "+", " ", " NEAR/", " AND ", " OR ", " NOT ", "🙂", "数据", "e\u0301", "\u0000", "a", "Z", "9", "'", "\\", "{", "}"];
    let seed = 42;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const inputs = ['"', "*", "(", "NEAR/", "AND AND", "hello AND AND", "(hello", 'hello"', "-", "😀", "数据库", "hello NEAR/ world", "tool_name:hello", "^hello"];
    for (let i = 0; i < 300; i++) inputs.push(Array.from({ length: 1 + Math.floor(next() * 10) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""));
    for (const input of inputs) {
      assert.doesNotThrow(() => search(db, input), JSON.stringify(input));
      const match = buildFtsQuery(input);
      if (match) assert.doesNotThrow(() => db.exec("SELECT docid FROM messages_fts WHERE messages_fts MATCH ?", [match]), match);
    }
    assert.equal(search(db, "数据库").length, 1);
  });
});

describe("searchMessages", () => {
  let db: Database;
  beforeEach(async () => {
    db = await openDatabase();
  });

  it("ranks with BM25: two hits in a short text beat one in a long text; tool_name hits rank below content hits", () => {
    addSession(db, "long", [{ content: `the deploy step ${filler(60)}` }]);
    addSession(db, "short", [{ content: "deploy failed, deploy again" }]);
    assert.deepEqual(search(db, "deploy").map((h) => h.sessionId), ["short", "long"]);
    assert.ok(search(db, "deploy")[0]!.score > search(db, "deploy")[1]!.score);
    addSession(db, "tool", [{ role: "tool", toolName: "kubectl", content: "pod restarted" }]);
    addSession(db, "said", [{ content: "I ran kubectl rollout yesterday" }]);
    const roles = ["user", "assistant", "tool"];
    assert.deepEqual(search(db, "kubectl", { roles }).map((h) => h.sessionId), ["said", "tool"]);
    assert.deepEqual(search(db, "kubectl", { roles: ["user", "assistant"] }).map((h) => h.sessionId), ["said"]);
  });

  it("matches prefixes (last word or word*) and folds diacritics", () => {
    addSession(db, "a", [{ content: "the database migration is done" }]);
    assert.equal(search(db, "database migrat").length, 1);
    assert.equal(search(db, "migrat* database").length, 1);
    assert.equal(search(db, "migrat database").length, 0, "only the last word is a prefix without *");
    addSession(db, "b", [{ content: "Updated my résumé and the café menu" }]);
    assert.deepEqual(search(db, "resume").map((h) => h.sessionId), ["b"]);
    assert.deepEqual(search(db, "CAFÉ").map((h) => h.sessionId), ["b"]);
  });

  it("returns FTS4 snippets with >>> <<< and ..., the same as snippet() on messages_fts", () => {
    const [id] = addSession(db, "a", [{ content: `${filler(20)} the flaky deploy test ${filler(20)}` }]);
    const [hit] = search(db, "flaky deploy");
    assert.match(hit!.snippet, /^\.\.\..*>>>flaky<<< >>>deploy<<<.*\.\.\.$/);
    const direct = db.exec("SELECT snippet(messages_fts, '>>>', '<<<', '...', -1, 12) FROM messages_fts WHERE messages_fts MATCH ? AND docid = ?", [buildFtsQuery("flaky deploy")!, id!]);
    assert.equal(hit!.snippet, direct[0]!.values[0]![0]);
    assert.equal(hit!.messageId, id);
  });

  it("keeps the best hit per lineage, skips inactive messages, hidden sources and the caller's lineage", () => {
    addSession(db, "root", [{ content: "nginx proxy" }]);
    addSession(db, "child", [{ content: "nginx nginx" }], { parent: "root" });
    addSession(db, "grandchild", [{ content: `nginx ${filler(30)}` }], { parent: "child" });
    addSession(db, "other", [{ content: `nginx config ${filler(10)}` }]);
    addSession(db, "compacted", [{ content: "nginx nginx nginx", active: 0 }, { content: "unrelated" }]);
    addSession(db, "sub", [{ content: "nginx" }], { source: "subagent" });
    const hits = search(db, "nginx");
    assert.deepEqual(hits.map((h) => [h.sessionId, h.rootSessionId]), [["child", "root"], ["other", "other"]]);
    assert.equal(hits[0]!.title, "Title of child");
    assert.deepEqual(search(db, "nginx", { excludeSessionId: "grandchild" }).map((h) => h.sessionId), ["other"]);
    assert.equal(search(db, "nginx", { limit: 1 }).length, 1);
  });

  it("sorts by time when asked", () => {
    addSession(db, "old", [{ content: "redis cache" }], { at: 1_600_000_000 });
    addSession(db, "mid", [{ content: "redis redis cache" }], { at: 1_650_000_000 });
    addSession(db, "new", [{ content: `redis ${filler(40)}` }], { at: 1_700_000_000 });
    assert.deepEqual(search(db, "redis", { sort: "newest" }).map((h) => h.sessionId), ["new", "mid", "old"]);
    assert.deepEqual(search(db, "redis", { sort: "oldest" }).map((h) => h.sessionId), ["old", "mid", "new"]);
    assert.equal(search(db, "redis")[0]!.sessionId, "mid");
  });
});

describe("scroll, read and browse", () => {
  it("gives a window of active messages around one message, with tool call names", async () => {
    const db = await openDatabase();
    const ids = addSession(db, "s", [
      { content: "m0" }, { content: "m1" }, { content: "m2", active: 0 }, { role: "assistant", content: null, toolCalls: [{ id: "c", name: "terminal", arguments: "{}" }] },
      { role: "tool", toolName: "terminal", content: "m4" }, { content: "m5" }, { content: "m6" }, { content: "m7" },
    ]);
    const window = scrollAround(db, "s", ids[4]!, 2)!;
    assert.deepEqual(window.messages.map((m) => m.id), [ids[1], ids[3], ids[4], ids[5], ids[6]]);
    assert.deepEqual(window.messages[1]!.toolCalls, ["terminal"]);
    assert.equal(window.messages[2]!.toolName, "terminal");
    assert.equal(window.anchorSeq, 4);
    assert.equal(scrollAround(db, "other", ids[4]!, 2), undefined);
  });

  it("reads the first 20 and last 10 messages, and browses recent sessions with message counts", async () => {
    const db = await openDatabase();
    addSession(db, "big", Array.from({ length: 40 }, (_, i) => ({ content: `message ${i}` })), { at: 1_700_000_000 });
    addSession(db, "small", [{ content: "a" }, { content: "b", active: 0 }, { content: "c" }], { at: 1_710_000_000 });
    addSession(db, "empty", [], { at: 1_720_000_000 });
    const big = readSession(db, "big")!;
    assert.deepEqual([big.head.length, big.tail.length, big.omitted, big.session.messageCount], [20, 10, 10, 40]);
    assert.equal(big.head[0]!.content, "message 0");
    assert.equal(big.tail[9]!.content, "message 39");
    const small = readSession(db, "small")!;
    assert.deepEqual([small.head.map((m) => m.content), small.tail.length, small.omitted], [["a", "c"], 0, 0]);
    assert.equal(readSession(db, "missing"), undefined);
    assert.deepEqual(browseSessions(db, 10).map((s) => [s.id, s.messageCount]), [["small", 2], ["big", 40]]);
    assert.deepEqual(browseSessions(db, 1).map((s) => s.id), ["small"]);
  });
});

describe("session_search tool", () => {
  type Json = Record<string, unknown>;
  const call = (args: Json, sessions?: SessionDatabaseAccess): Promise<ToolResult> =>
    runTool(sessionSearchTool, args, Object.assign(toolEnvironment(tmpdir(), tmpdir()), sessions ? { sessions } : {}));
  const body = (result: ToolResult) => {
    assert.ok(!result.isError, result.content);
    return JSON.parse(result.content) as Json;
  };
  let db: Database;
  let access: SessionDatabaseAccess;
  let ids: number[];
  before(async () => {
    db = await openDatabase();
    for (let i = 0; i < 12; i++) addSession(db, `s${i}`, [{ content: `terraform plan number ${i}` }, { role: "assistant", content: "ok" }], { at: 1_700_000_000 + i * 1000 });
    ids = addSession(db, "long", Array.from({ length: 50 }, (_, i) => ({ content: i === 25 ? "the kafka consumer lag" : `line ${i}` })));
    addSession(db, "current", [{ content: "kafka in the current session" }], { at: 1_800_000_000 });
    access = { database: async () => db, currentSessionId: "current" };
  });

  it("answers with an error when the front end gives no session store, or the store fails", async () => {
    const none = await call({ query: "kafka" });
    assert.ok(none.isError);
    assert.match(none.content, /not available in this front end/);
    const failing = await call({}, { database: () => Promise.reject(new Error("disk gone")), currentSessionId: "x" });
    assert.ok(failing.isError);
    assert.match(failing.content, /disk gone/);
  });

  it("DISCOVERY: defaults, clamps, the window around the hit, and the current session left out", async () => {
    const found = body(await call({ query: "kafka" }, access));
    assert.deepEqual([found.mode, found.sort, found.roles, found.count], ["discovery", "relevance", ["user", "assistant"], 1]);
    const [result] = found.results as Json[];
    assert.equal(result!.session_id, "long");
    assert.equal(result!.message_id, ids[25]);
    assert.match(String(result!.snippet), />>>kafka<<</);
    assert.match(String(result!.when), /^2023-11-14 \d\d:\d\d UTC/);
    const window = result!.window as Json[];
    assert.equal(window.length, 11);
    assert.deepEqual(window[5], { message_id: ids[25], role: "user", content: "the kafka consumer lag", match: true });
    assert.equal((body(await call({ query: "terraform" }, access)).results as Json[]).length, 3);
    const many = body(await call({ query: "terraform", limit: 50, sort: "newest" }, access));
    assert.equal((many.results as Json[]).length, 10);
    assert.equal((many.results as Json[])[0]!.session_id, "s11");
    assert.equal(((many.results as Json[])[0]!.window as Json[]).length, 2, "a smaller window when many results are asked for");
    assert.equal(body(await call({ query: "kafka", limit: 0, roles: ["tool"] }, access)).count, 0);
    const nothing = body(await call({ query: '"*"' }, access));
    assert.equal(nothing.count, 0);
    assert.match(String(nothing.message), /no searchable words/);
  });

  it("SCROLL, READ and BROWSE", async () => {
    const scroll = body(await call({ session_id: "long", around_message_id: ids[25] }, access));
    assert.deepEqual([scroll.mode, scroll.window, (scroll.messages as Json[]).length], ["scroll", 5, 11]);
    assert.equal((body(await call({ session_id: "long", around_message_id: ids[25], window: 100 }, access)).messages as Json[]).length, 41);
    assert.equal((body(await call({ session_id: "long", around_message_id: ids[0], window: 0 }, access)).messages as Json[]).length, 2);
    assert.ok((await call({ session_id: "s1", around_message_id: ids[25] }, access)).isError);
    assert.ok((await call({ around_message_id: ids[25] }, access)).isError);
    const read = body(await call({ session_id: "long" }, access));
    assert.deepEqual([read.mode, (read.first as Json[]).length, read.omitted, (read.last as Json[]).length], ["read", 20, 20, 10]);
    assert.equal((read.session as Json).message_count, 50);
    assert.ok((await call({ session_id: "missing" }, access)).isError);
    const browse = body(await call({}, access));
    const sessions = browse.sessions as Json[];
    assert.equal(browse.mode, "browse");
    assert.equal(sessions.length, 10);
    assert.deepEqual([sessions[0]!.session_id, sessions[0]!.current], ["current", true]);
  });
});

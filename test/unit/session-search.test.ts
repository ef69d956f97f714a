import { strict as assert } from "node:assert";
import type { Database } from "sql.js";
import { bm25, idf, parseMatchinfo } from "../../agent/store/bm25.js";
import { buildFtsQuery } from "../../agent/store/fts-query.js";
import { openDatabase } from "../../agent/store/schema.js";
import { searchMessages } from "../../agent/store/session-search.js";
import {
  anchoredView,
  browseSessions,
  findSessionByTitle,
  messagesAround,
  readSession,
} from "../../agent/store/session-views.js";
import { addSession, filler } from "../helpers/session-rows.js";

const search = (db: Database, query: string, extra: Partial<Parameters<typeof searchMessages>[1]> = {}) =>
  searchMessages(db, { query, limit: 10, ...extra });

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
    for (const input of [
      '"',
      "*",
      "(",
      ")",
      "NEAR/",
      "AND AND",
      "OR",
      "NOT",
      "-",
      '""',
      "-foo",
      "🙂💥",
      "\u0301",
      "  ",
      "NOT foo",
    ]) {
      assert.equal(buildFtsQuery(input), undefined, JSON.stringify(input));
    }
  });

  it("never makes MATCH throw, whatever the input", async () => {
    const db = await openDatabase();
    addSession(db, "s", [{ content: "hello world 数据库 résumé" }]);
    const alphabet = [
      '"',
      "*",
      "(",
      ")",
      ":",
      "^",
      "-",
      "+",
      " ",
      " NEAR/",
      " AND ",
      " OR ",
      " NOT ",
      "🙂",
      "数据",
      "e\u0301",
      "\u0000",
      "a",
      "Z",
      "9",
      "'",
      "\\",
      "{",
      "}",
    ];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const inputs = [
      '"',
      "*",
      "(",
      "NEAR/",
      "AND AND",
      "hello AND AND",
      "(hello",
      'hello"',
      "-",
      "😀",
      "数据库",
      "hello NEAR/ world",
      "tool_name:hello",
      "^hello",
    ];
    for (let i = 0; i < 300; i++)
      inputs.push(
        Array.from({ length: 1 + Math.floor(next() * 10) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
          "",
        ),
      );
    for (const input of inputs) {
      assert.doesNotThrow(() => search(db, input), JSON.stringify(input));
      const match = buildFtsQuery(input);
      if (match)
        assert.doesNotThrow(() => db.exec("SELECT docid FROM messages_fts WHERE messages_fts MATCH ?", [match]), match);
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
    assert.deepEqual(
      search(db, "deploy").map((h) => h.sessionId),
      ["short", "long"],
    );
    assert.ok(search(db, "deploy")[0]!.score > search(db, "deploy")[1]!.score);
    addSession(db, "tool", [{ role: "tool", toolName: "kubectl", content: "pod restarted" }]);
    addSession(db, "said", [{ content: "I ran kubectl rollout yesterday" }]);
    const roles = ["user", "assistant", "tool"];
    assert.deepEqual(
      search(db, "kubectl", { roles }).map((h) => h.sessionId),
      ["said", "tool"],
    );
    assert.deepEqual(
      search(db, "kubectl", { roles: ["user", "assistant"] }).map((h) => h.sessionId),
      ["said"],
    );
  });

  it("matches prefixes (last word or word*) and folds diacritics", () => {
    addSession(db, "a", [{ content: "the database migration is done" }]);
    assert.equal(search(db, "database migrat").length, 1);
    assert.equal(search(db, "migrat* database").length, 1);
    assert.equal(search(db, "migrat database").length, 0, "only the last word is a prefix without *");
    addSession(db, "b", [{ content: "Updated my résumé and the café menu" }]);
    assert.deepEqual(
      search(db, "resume").map((h) => h.sessionId),
      ["b"],
    );
    assert.deepEqual(
      search(db, "CAFÉ").map((h) => h.sessionId),
      ["b"],
    );
  });

  it("returns FTS4 snippets with >>> <<< and ..., the same as snippet() on messages_fts", () => {
    const [id] = addSession(db, "a", [{ content: `${filler(20)} the flaky deploy test ${filler(20)}` }]);
    const [hit] = search(db, "flaky deploy");
    assert.match(hit!.snippet, /^\.\.\..*>>>flaky<<< >>>deploy<<<.*\.\.\.$/);
    const direct = db.exec(
      "SELECT snippet(messages_fts, '>>>', '<<<', '...', -1, 12) FROM messages_fts WHERE messages_fts MATCH ? AND docid = ?",
      [buildFtsQuery("flaky deploy")!, id!],
    );
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
    assert.deepEqual(
      hits.map((h) => [h.sessionId, h.rootSessionId]),
      [
        ["child", "root"],
        ["other", "other"],
      ],
    );
    assert.equal(hits[0]!.title, "Title of child");
    assert.deepEqual(
      search(db, "nginx", { excludeSessionId: "grandchild" }).map((h) => h.sessionId),
      ["other"],
    );
    assert.equal(search(db, "nginx", { limit: 1 }).length, 1);
  });

  it("puts cron runs below every interactive hit, but still finds them when nothing else matches", () => {
    addSession(db, "mine", [{ content: `backup of the photos ${filler(40)}` }], { at: 1_600_000_000 });
    addSession(db, "cron-run", [{ content: "backup backup backup" }], { source: "cron", at: 1_750_000_000 });
    assert.deepEqual(
      search(db, "backup").map((h) => h.sessionId),
      ["mine", "cron-run"],
      "the cron run scores higher but comes second",
    );
    assert.deepEqual(
      search(db, "backup", { sort: "newest" }).map((h) => h.sessionId),
      ["mine", "cron-run"],
      "even when it is newer",
    );
    assert.deepEqual(
      search(db, "photos").map((h) => h.sessionId),
      ["mine"],
    );
    assert.deepEqual(
      search(db, "backup", { excludeSessionId: "mine" }).map((h) => h.sessionId),
      ["cron-run"],
    );
  });

  it("sorts by time when asked", () => {
    addSession(db, "old", [{ content: "redis cache" }], { at: 1_600_000_000 });
    addSession(db, "mid", [{ content: "redis redis cache" }], { at: 1_650_000_000 });
    addSession(db, "new", [{ content: `redis ${filler(40)}` }], { at: 1_700_000_000 });
    assert.deepEqual(
      search(db, "redis", { sort: "newest" }).map((h) => h.sessionId),
      ["new", "mid", "old"],
    );
    assert.deepEqual(
      search(db, "redis", { sort: "oldest" }).map((h) => h.sessionId),
      ["old", "mid", "new"],
    );
    assert.equal(search(db, "redis")[0]!.sessionId, "mid");
  });
});

describe("session views: window, bookends, read, browse, title", () => {
  const SUMMARY = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below.";
  let db: Database;
  beforeEach(async () => {
    db = await openDatabase();
  });

  it("gives a window of active messages around one message, with counts and the stored tool calls", () => {
    const ids = addSession(db, "s", [
      { content: "m0" },
      { content: "m1" },
      { content: "m2", active: 0 },
      { role: "assistant", content: null, toolCalls: [{ id: "c", name: "terminal", arguments: "{}" }] },
      { role: "tool", toolName: "terminal", content: "m4" },
      { content: "m5" },
      { content: "m6" },
      { content: "m7" },
    ]);
    const window = messagesAround(db, "s", ids[4]!, 2)!;
    assert.deepEqual(
      window.messages.map((m) => m.id),
      [ids[1], ids[3], ids[4], ids[5], ids[6]],
    );
    assert.deepEqual(window.messages[1]!.toolCalls, [{ id: "c", name: "terminal", arguments: "{}" }]);
    assert.equal(window.messages[2]!.toolName, "terminal");
    assert.deepEqual([window.before, window.after], [2, 2]);
    assert.deepEqual([messagesAround(db, "s", ids[0]!, 5)!.before, messagesAround(db, "s", ids[7]!, 5)!.after], [0, 0]);
    assert.equal(messagesAround(db, "s", ids[2]!, 1)!.messages[1]!.content, "m2", "an inactive anchor is still shown");
    assert.equal(messagesAround(db, "other", ids[4]!, 2), undefined);
  });

  it("adds bookends: the first and last 3 user/assistant messages with text outside the window, compaction summaries left out", () => {
    const ids = addSession(db, "s", [
      { content: "goal: migrate the billing database" },
      { role: "assistant", content: null, toolCalls: [{ id: "c", name: "terminal", arguments: "{}" }] },
      { role: "tool", toolName: "terminal", content: "tool output at the start" },
      { content: `  \n${SUMMARY} …` },
      { role: "assistant", content: "[CONTEXT SUMMARY]: legacy summary" },
      { role: "assistant", content: "plan ready" },
      { content: "go on" },
      ...Array.from({ length: 20 }, (_, i) => ({ role: i % 3 === 0 ? "tool" : "assistant", content: `middle ${i}` })),
      { content: "did it work?" },
      { role: "assistant", content: `${SUMMARY} late` },
      { role: "assistant", content: "yes, migrated" },
      { content: "thanks" },
      { role: "tool", content: "trailing tool output" },
    ]);
    const hit = ids[17]!; // "middle 10", an assistant message
    const view = anchoredView(db, "s", hit)!;
    assert.deepEqual(
      view.bookendStart.map((m) => m.content),
      ["goal: migrate the billing database", "plan ready", "go on"],
    );
    assert.deepEqual(
      view.bookendEnd.map((m) => m.content),
      ["did it work?", "yes, migrated", "thanks"],
    );
    assert.ok(
      view.messages.every((m) => m.role !== "tool"),
      "tool traffic is dropped from the window",
    );
    assert.equal(view.messages.filter((m) => m.id === hit).length, 1);
    assert.deepEqual([view.before, view.after], [5, 5]);
    const toolAnchor = ids[16]!; // "middle 9", a tool message
    assert.deepEqual(
      anchoredView(db, "s", toolAnchor)!
        .messages.filter((m) => m.role === "tool")
        .map((m) => m.id),
      [toolAnchor],
      "a tool anchor stays",
    );
    const nearStart = anchoredView(db, "s", ids[1]!)!;
    assert.deepEqual(nearStart.bookendStart, [], "the window already covers the opening");
    assert.deepEqual(anchoredView(db, "s", ids[5]!, { bookend: 0 })!.bookendEnd, []);
  });

  it("reads the first 20 and last 10 active messages of a long session, all of a short one", () => {
    addSession(
      db,
      "big",
      Array.from({ length: 40 }, (_, i) => ({ content: `message ${i}` })),
    );
    addSession(db, "small", [{ content: "a" }, { content: "b", active: 0 }, { content: "c" }]);
    const big = readSession(db, "big")!;
    assert.deepEqual([big.messages.length, big.total, big.truncated], [30, 40, true]);
    assert.deepEqual(
      [big.messages[0]!.content, big.messages[19]!.content, big.messages[20]!.content, big.messages[29]!.content],
      ["message 0", "message 19", "message 30", "message 39"],
    );
    const small = readSession(db, "small")!;
    assert.deepEqual([small.messages.map((m) => m.content), small.total, small.truncated], [["a", "c"], 2, false]);
    assert.equal(readSession(db, "missing"), undefined);
  });

  it("browses recent sessions with previews, leaving out empty, hidden and the caller's sessions", () => {
    addSession(
      db,
      "old",
      [{ role: "assistant", content: "hello" }, { content: `first line\nsecond line ${"x".repeat(80)}` }],
      { at: 1_700_000_000 },
    );
    addSession(db, "new", [{ content: "short", active: 0 }, { content: "kept" }], { at: 1_710_000_000 });
    addSession(db, "current", [{ content: "now" }], { at: 1_720_000_000 });
    addSession(db, "empty", [], { at: 1_730_000_000 });
    addSession(db, "sub", [{ content: "delegated" }], { source: "subagent", at: 1_740_000_000 });
    const listed = browseSessions(db, { limit: 10, excludeSessionId: "current" });
    assert.deepEqual(
      listed.map((s) => [s.id, s.messageCount]),
      [
        ["new", 1],
        ["old", 2],
      ],
    );
    assert.equal(listed[0]!.preview, "short", "the first user message the session ever had");
    assert.equal(listed[1]!.preview, `first line second line ${"x".repeat(37)}...`);
    assert.equal(listed[1]!.lastActive, 1_700_000_060);
    assert.deepEqual(
      browseSessions(db, { limit: 1 }).map((s) => s.id),
      ["current"],
    );
  });

  it("finds a session by its exact title, preferring the newest numbered continuation", () => {
    addSession(db, "a", [{ content: "x" }], { title: "Fix the build", at: 1_700_000_000 });
    assert.equal(findSessionByTitle(db, "Fix the build"), "a");
    addSession(db, "b", [{ content: "x" }], { title: "Fix the build #2", at: 1_700_100_000 });
    addSession(db, "c", [{ content: "x" }], { title: "Fix the build #3", at: 1_700_200_000 });
    addSession(db, "d", [{ content: "x" }], { title: "Fix the build later", at: 1_700_300_000 });
    assert.equal(findSessionByTitle(db, "Fix the build"), "c");
    assert.equal(findSessionByTitle(db, "fix the build"), undefined, "case matters, as in upstream's = lookup");
    assert.equal(findSessionByTitle(db, "Fix"), undefined);
    assert.equal(findSessionByTitle(db, ""), undefined);
  });
});

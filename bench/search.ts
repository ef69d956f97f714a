/**
 * Session search benchmark: `npx tsx bench/search.ts`. Builds an in-memory session store with 100,000 messages in
 * about 2,000 sessions from a generated vocabulary (fixed-seed PRNG, so every run searches the same corpus), runs
 * about 200 varied queries through searchMessages and prints median / p95 / max milliseconds per query, overall
 * and per kind of query, then times the other shapes and the whole DISCOVERY shape (search plus window and bookends)
 * over the same queries. Writes bench/results/search-latest.json. Target: median and p95 under 20 ms.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Database } from "sql.js";
import { openDatabase } from "../agent/store/schema.js";
import { discoverSessions } from "../agent/store/session-discovery.js";
import { type SearchSort, searchMessages } from "../agent/store/session-search.js";
import { anchoredView, browseSessions, messagesAround, readSession } from "../agent/store/session-views.js";
import { prng } from "./prng.js";

const MESSAGES = 100_000;
const SESSIONS = 2_000;
const TARGET_MS = 20;

const random = prng(20240611);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

const STOPWORDS = (
  "the to a and of is in it that for you this on with be as can we not are if have I but so or at will from by an " +
  "do was there what all should need just like would use then now it's let me here which also more when one"
).split(" ");
const TECH = (
  "error test build config database migration docker compose network file function class module import export " +
  "type interface server client request response timeout retry cache session token model provider stream chunk " +
  "parse json yaml schema query index table column row insert update delete select join transaction commit branch " +
  "merge rebase git diff patch review deploy release version package dependency install npm node typescript " +
  "javascript python rust go compile linker memory leak thread async await promise callback event listener handler " +
  "router middleware auth login password permission user admin role policy secret key certificate tls proxy " +
  "kubernetes pod container image registry volume mount path directory folder workspace editor extension plugin " +
  "terminal shell command script cron job queue worker scheduler log metric trace span latency throughput " +
  "benchmark profile optimise refactor rename lint format prettier eslint vitest mocha jest coverage fixture mock " +
  "stub snapshot assertion failure flaky pipeline ci workflow artifact upload download storage bucket s3 lambda " +
  "frontend backend api endpoint graphql rest websocket socket port host localhost dns certificate nginx apache " +
  "webpack esbuild bundle minify sourcemap debug breakpoint stacktrace exception panic segfault overflow underflow " +
  "encoding utf8 unicode emoji locale timezone date timestamp duration interval cancel abort signal sigterm " +
  "process spawn child stdin stdout stderr pipe buffer stream backpressure throttle debounce batch pagination cursor"
).split(" ");
const ACCENTED = ["résumé", "café", "naïve", "façade", "über", "Zürich", "déjà", "señor", "crème", "Ångström"];
const TOOLS = [
  "terminal",
  "read_file",
  "write_file",
  "patch",
  "search_files",
  "web_search",
  "todo",
  "memory",
  "session_search",
  "execute_code",
];
const SYLLABLES =
  "ka ro mi sen tal vor qua lin dex pra ton bel fur gis hal jem kor lup mar nov pex rud sil tov ush vek wyn xan yor zel".split(
    " ",
  );

/** The long tail: made-up words, rare in the corpus, the kind of identifier or name a rare-term query looks for. */
const TAIL: string[] = [];
for (const seen = new Set<string>(); TAIL.length < 6000; ) {
  const word = Array.from({ length: between(2, 4) }, () => pick(SYLLABLES)).join("");
  if (!seen.has(word)) seen.add(word), TAIL.push(word);
}
const VOCABULARY = [...TECH, ...ACCENTED, ...TAIL];

/** Zipf-like sampler over VOCABULARY: rank r has weight 1/(r+3). */
const cumulative = (() => {
  let total = 0;
  const sums = VOCABULARY.map((_, r) => (total += 1 / (r + 3)));
  return sums.map((s) => s / total);
})();
function zipfWord(): string {
  const u = random();
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}

function sentence(words: number, topic: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const u = random();
    out.push(u < 0.4 ? pick(STOPWORDS) : u < 0.65 ? pick(topic) : zipfWord());
  }
  return out.join(" ");
}

async function buildCorpus(): Promise<{ db: Database; phrases: string[]; buildMs: number }> {
  const started = performance.now();
  const db = await openDatabase();
  const phrases: string[] = [];
  const insertSession = db.prepare(
    "INSERT INTO sessions(id, source, cwd, title, created_at, updated_at, parent_session_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const insertMessage = db.prepare(
    "INSERT INTO messages(session_id, seq, role, content, tool_calls, tool_name, timestamp, active) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  db.run("BEGIN");
  let clock = 1_700_000_000;
  let written = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const id = `session-${String(s).padStart(5, "0")}`;
    const topic = Array.from({ length: 12 }, () => (random() < 0.7 ? pick(TECH) : pick(TAIL)));
    // One session in twenty continues an earlier one (a fork or a compression child): a lineage.
    const parent = s > 10 && random() < 0.05 ? `session-${String(between(0, s - 1)).padStart(5, "0")}` : null;
    const count =
      s === SESSIONS - 1 ? MESSAGES - written : Math.max(2, Math.round((MESSAGES / SESSIONS) * (0.3 + random() * 1.4)));
    const compacted = random() < 0.1 ? Math.floor(count / 2) : 0;
    const created = clock;
    for (let seq = 0; seq < count && written < MESSAGES; seq++, written++) {
      clock += between(5, 400);
      const u = random();
      const role = seq === 0 || u < 0.25 ? "user" : u < 0.65 ? "assistant" : "tool";
      const toolName = role === "tool" ? pick(TOOLS) : null;
      const length = role === "user" ? between(4, 40) : role === "assistant" ? between(10, 160) : between(5, 120);
      const content = sentence(length, topic);
      const toolCalls =
        role === "assistant" && random() < 0.3
          ? JSON.stringify([{ id: `c${written}`, name: pick(TOOLS), arguments: "{}" }])
          : null;
      if (random() < 0.01) {
        const words = content.split(" ");
        const at = between(0, Math.max(0, words.length - 2));
        if (words.length > 2) phrases.push(words.slice(at, at + 2).join(" "));
      }
      insertMessage.run([id, seq, role, content, toolCalls, toolName, clock, seq < compacted ? 0 : 1]);
    }
    insertSession.run([
      id,
      random() < 0.03 ? "cron" : "acp",
      `/home/dev/project-${s % 40}`,
      `${pick(TECH)} ${pick(TECH)} work`,
      created,
      clock,
      parent,
    ]);
  }
  db.run("COMMIT");
  insertSession.free();
  insertMessage.free();
  return { db, phrases, buildMs: performance.now() - started };
}

interface BenchQuery {
  readonly kind: string;
  readonly query: string;
  readonly sort?: SearchSort;
  readonly exclude?: boolean;
}

function queries(phrases: readonly string[]): BenchQuery[] {
  const q: BenchQuery[] = [];
  const common = TECH.slice(0, 60);
  for (let i = 0; i < 35; i++) q.push({ kind: "common word", query: `${pick(common)}.` });
  for (let i = 0; i < 35; i++) q.push({ kind: "rare word", query: `"${pick(TAIL.slice(3000))}"` });
  for (let i = 0; i < 15; i++) q.push({ kind: "prefix", query: `${pick(TECH).slice(0, 4)}*` });
  for (let i = 0; i < 15; i++) q.push({ kind: "prefix", query: pick(TECH).slice(0, between(2, 3)) });
  for (let i = 0; i < 30; i++) q.push({ kind: "phrase", query: `"${pick(phrases)}"` });
  for (let i = 0; i < 30; i++) q.push({ kind: "two-word AND", query: `${pick(TECH)} ${pick(TECH)}.` });
  for (let i = 0; i < 10; i++) q.push({ kind: "OR / NOT", query: `${pick(TECH)} OR ${pick(TECH)} -${pick(TECH)}.` });
  for (let i = 0; i < 10; i++)
    q.push({ kind: "diacritics", query: pick(["resume", "cafe", "naive", "facade", "zurich", "uber", "deja"]) });
  for (let i = 0; i < 10; i++)
    q.push({ kind: "newest/oldest", query: `${pick(common)}.`, sort: i % 2 ? "newest" : "oldest" });
  for (let i = 0; i < 10; i++)
    q.push({ kind: "excluding current", query: `${pick(common)} ${pick(TAIL.slice(0, 200))}`, exclude: true });
  return q;
}

function stats(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { count: sorted.length, median: round(at(0.5)), p95: round(at(0.95)), max: round(sorted[sorted.length - 1]!) };
}

async function main(): Promise<void> {
  const { db, phrases, buildMs } = await buildCorpus();
  const all = queries(phrases);
  for (const w of all.slice(0, 10)) searchMessages(db, { query: w.query, limit: 3, roles: ["user", "assistant"] }); // warm-up
  const timings: number[] = [];
  const discoveryTimes: number[] = [];
  const byKind = new Map<string, number[]>();
  let empty = 0;
  for (const item of all) {
    const started = performance.now();
    const hits = searchMessages(db, {
      query: item.query,
      limit: 3,
      roles: ["user", "assistant"],
      sort: item.sort ?? "relevance",
      excludeSessionId: item.exclude ? "session-01999" : undefined,
    });
    const ms = performance.now() - started;
    if (hits.length === 0) empty++;
    timings.push(ms);
    byKind.set(item.kind, [...(byKind.get(item.kind) ?? []), ms]);
    // The whole DISCOVERY shape for the same query right after (title lookup, search, window and bookends for the
    // top hit, the matched message for the others): interleaved, so both see the same machine load.
    const discoveryStarted = performance.now();
    discoverSessions(db, {
      query: item.query,
      roles: ["user", "assistant"],
      limit: 3,
      sort: item.sort ?? "relevance",
      detail: "adaptive",
      ...(item.exclude ? { currentSessionId: "session-01999" } : {}),
    });
    discoveryTimes.push(performance.now() - discoveryStarted);
  }
  const overall = stats(timings);
  const discovery = stats(discoveryTimes);
  const other = (fn: () => unknown) => {
    const t: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      fn();
      t.push(performance.now() - started);
    }
    return stats(t);
  };
  const session = `session-${String(between(0, SESSIONS - 1)).padStart(5, "0")}`;
  const anyMessage = Number(
    db.exec("SELECT id FROM messages WHERE session_id = ? AND active = 1 LIMIT 1 OFFSET 3", [session])[0]
      ?.values[0]?.[0] ?? 1,
  );
  const modes = {
    scroll: other(() => messagesAround(db, session, anyMessage, 5)),
    anchored: other(() => anchoredView(db, session, anyMessage, { window: 5, bookend: 3 })),
    read: other(() => readSession(db, session)),
    browse: other(() => browseSessions(db, { limit: 10 })),
  };
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version },
    corpus: {
      messages: MESSAGES,
      sessions: SESSIONS,
      vocabulary: VOCABULARY.length + STOPWORDS.length,
      buildMs: Math.round(buildMs),
    },
    targetMs: TARGET_MS,
    queries: { ...overall, withoutHits: empty },
    byKind: Object.fromEntries([...byKind].map(([kind, t]) => [kind, stats(t)])),
    otherModes: modes,
    discovery,
    meetsTarget:
      overall.median < TARGET_MS &&
      overall.p95 < TARGET_MS &&
      discovery.median < TARGET_MS &&
      discovery.p95 < TARGET_MS,
  };
  console.log(`corpus: ${MESSAGES} messages, ${SESSIONS} sessions, built in ${(buildMs / 1000).toFixed(1)} s`);
  console.log(
    `${"kind".padEnd(20)} ${"n".padStart(4)} ${"median".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}`,
  );
  const line = (kind: string, s: ReturnType<typeof stats>) =>
    console.log(
      `${kind.padEnd(20)} ${String(s.count).padStart(4)} ${s.median.toFixed(2).padStart(8)} ${s.p95.toFixed(2).padStart(8)} ${s.max.toFixed(2).padStart(8)}`,
    );
  for (const [kind, s] of Object.entries(result.byKind)) line(kind, s);
  line("ALL queries (ms)", overall);
  for (const [mode, s] of Object.entries(modes)) line(`${mode} (ms)`, s);
  line("discovery (ms)", discovery);
  console.log(
    `queries without hits: ${empty}; target median and p95 < ${TARGET_MS} ms (search and discovery): ${result.meetsTarget ? "met" : "MISSED"}`,
  );
  const dir = join(__dirname, "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "search-latest.json"), `${JSON.stringify(result, null, 2)}\n`);
  db.close();
  if (!result.meetsTarget) process.exitCode = 1;
}

void main();

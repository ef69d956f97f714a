import type { Database, SqlValue, Statement } from "sql.js";
import { bm25 } from "./bm25.js";
import { buildFtsQuery } from "./fts-query.js";

export type SearchSort = "relevance" | "newest" | "oldest";

export interface SearchOptions {
  readonly query: string;
  /** Only messages with these roles; all roles when absent or empty. */
  readonly roles?: readonly string[];
  readonly limit: number;
  /** The caller's own session: it and its whole lineage are left out (the model already has that context). */
  readonly excludeSessionId?: string;
  readonly sort?: SearchSort;
}

/** One hit per lineage: the session it was found in, and the message. */
export interface SearchHit extends Pick<SessionSummary, "title" | "cwd" | "source" | "updatedAt"> {
  readonly sessionId: string;
  /** The first session of the lineage (parent_session_id chain followed to its end). */
  readonly rootSessionId: string;
  readonly messageId: number;
  readonly seq: number;
  readonly role: string;
  readonly timestamp: number;
  /** Matched words between >>> and <<<, cut to about 12 tokens with "...". */
  readonly snippet: string;
  /** BM25 (higher is better). */
  readonly score: number;
}

export interface StoredMessageView {
  readonly id: number;
  readonly seq: number;
  readonly role: string;
  readonly content: string | null;
  readonly toolName: string | null;
  /** Names of the tools an assistant message called. */
  readonly toolCalls: readonly string[];
  readonly timestamp: number;
}

export interface MessageWindow {
  readonly sessionId: string;
  readonly anchorId: number;
  readonly anchorSeq: number;
  readonly messages: readonly StoredMessageView[];
}

export interface SessionSummary {
  readonly id: string;
  readonly title: string | null;
  readonly cwd: string;
  readonly source: string;
  readonly parentSessionId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Active messages. */
  readonly messageCount: number;
}

export interface SessionRead {
  readonly session: SessionSummary;
  readonly head: readonly StoredMessageView[];
  readonly tail: readonly StoredMessageView[];
  /** Active messages between head and tail that were left out. */
  readonly omitted: number;
}

/**
 * How many of the newest (or, for sort=oldest, oldest) matching messages are considered. FTS4 has no ranking
 * index, so relevance is computed in JS over this candidate set; upstream scans 300 ranked rows for the same
 * purpose. One row per message, so a lineage with many matches can take several slots.
 */
export const CANDIDATE_SCAN_LIMIT = 300;
/** Upstream hides these session sources from search and demotes cron runs. */
const HIDDEN_SOURCES = new Set(["subagent", "tool"]);
const DEMOTED_SOURCES = new Set(["cron"]);
const DEMOTION = 0.5;
const MAX_LINEAGE_DEPTH = 64;
export const READ_HEAD = 20;
export const READ_TAIL = 10;

const MESSAGE_COLUMNS = "id, seq, role, content, tool_name, tool_calls, timestamp";

const text = (value: SqlValue): string | null => (value === null ? null : String(value));

function toView(row: SqlValue[]): StoredMessageView {
  const [id, seq, role, content, toolName, toolCalls, timestamp] = row;
  return { id: Number(id), seq: Number(seq), role: String(role), content: text(content), toolName: text(toolName), toolCalls: toolCallNames(toolCalls), timestamp: Number(timestamp) };
}

/** Stored tool_calls are [{id, name, arguments}]; OpenAI-shaped {function: {name}} is read too. */
function toolCallNames(value: SqlValue): string[] {
  if (typeof value !== "string" || value === "") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((call: unknown) => {
      if (typeof call !== "object" || call === null) return [];
      const record = call as { name?: unknown; function?: { name?: unknown } };
      const name = record.name ?? record.function?.name;
      return typeof name === "string" ? [name] : [];
    });
  } catch {
    return [];
  }
}

function all(db: Database, sql: string, params: SqlValue[]): SqlValue[][] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const rows: SqlValue[][] = [];
    while (statement.step()) rows.push(statement.get());
    return rows;
  } finally {
    statement.free();
  }
}

type SessionRow = Pick<SessionSummary, "title" | "cwd" | "source" | "updatedAt"> & { readonly parent: string | null };

/** Session rows and lineage roots, looked up once per session per search. */
class Sessions {
  private readonly rows = new Map<string, SessionRow | null>();
  private readonly roots = new Map<string, string>();
  private readonly statement: Statement;

  constructor(db: Database) {
    this.statement = db.prepare("SELECT parent_session_id, source, title, cwd, updated_at FROM sessions WHERE id = ?");
  }

  row(id: string): SessionRow | null {
    let row = this.rows.get(id);
    if (row !== undefined) return row;
    const values = this.statement.get([id]);
    this.statement.reset();
    row = values.length === 0 ? null : { parent: text(values[0]), source: String(values[1]), title: text(values[2]), cwd: String(values[3]), updatedAt: Number(values[4]) };
    this.rows.set(id, row);
    return row;
  }

  /** The root of `id`'s lineage; a cycle or a dangling parent ends the walk at the last session found. */
  root(id: string): string {
    const known = this.roots.get(id);
    if (known !== undefined) return known;
    let current = id;
    const seen = new Set<string>([id]);
    for (let depth = 0; depth < MAX_LINEAGE_DEPTH; depth++) {
      const parent = this.row(current)?.parent;
      if (!parent || seen.has(parent) || this.row(parent) === null) break;
      seen.add(parent);
      current = parent;
    }
    this.roots.set(id, current);
    return current;
  }

  free(): void {
    this.statement.free();
  }
}

type Candidate = Pick<SearchHit, "sessionId" | "seq" | "role" | "timestamp"> & { readonly docid: number; score: number };

/**
 * A second, private in-memory database holding an FTS4 table like messages_fts (same tokenizer), used only to
 * make snippets. snippet() must run in a MATCH over the table that holds the row, and re-running the MATCH over
 * messages_fts for a handful of docids costs as much as the search itself (FTS4 loads every matching doclist
 * whatever the docid filter). Copying the few returned rows here and matching again gives the very same
 * snippet() output for a fraction of a millisecond. A separate database, so the caller's is never written to.
 */
let snippetDb: Database | undefined;

function snippetsFor(db: Database, match: string, docids: readonly number[]): Map<number, string> {
  const Ctor = db.constructor as new () => Database;
  if (!(snippetDb instanceof Ctor)) {
    snippetDb = new Ctor();
    snippetDb.run(`CREATE VIRTUAL TABLE snippets USING fts4(content, tool_name, tokenize=unicode61 "remove_diacritics=2")`);
  }
  const ids = docids.map(() => "?").join(", ");
  const rows = all(db, `SELECT id, content, tool_name FROM messages WHERE id IN (${ids})`, [...docids]);
  const side = snippetDb;
  side.run("BEGIN");
  try {
    for (const row of rows) side.run("INSERT INTO snippets(docid, content, tool_name) VALUES (?, ?, ?)", row);
    const snippets = all(side, "SELECT docid, snippet(snippets, '>>>', '<<<', '...', -1, 12) FROM snippets WHERE snippets MATCH ?", [match]);
    return new Map(snippets.map((r) => [Number(r[0]), String(r[1] ?? "")]));
  } finally {
    // Rolled back, never committed: the table is empty again for the next search.
    side.run("ROLLBACK");
  }
}

/**
 * Full-text search over active messages, best hit per session lineage, `limit` lineages at most.
 *
 * FTS4 selects the candidates (MATCH, newest first by docid, at most CANDIDATE_SCAN_LIMIT rows, joined to messages
 * by primary key for the active/role/session filters); matchinfo is computed only for those rows, snippets only for
 * the hits returned. The messages table is never scanned. sort=newest|oldest picks hits by message order (docid)
 * instead of score.
 */
export function searchMessages(db: Database, options: SearchOptions): SearchHit[] {
  const match = buildFtsQuery(options.query);
  if (match === undefined) return [];
  const sort = options.sort ?? "relevance";
  const limit = Math.max(1, Math.floor(options.limit));
  const roles = (options.roles ?? []).filter((r) => typeof r === "string" && r !== "");
  const params: SqlValue[] = [match];
  let filters = "";
  if (roles.length > 0) {
    filters += ` AND m.role IN (${roles.map(() => "?").join(", ")})`;
    params.push(...roles);
  }
  if (options.excludeSessionId !== undefined) {
    // The current session usually matches its own latest words: keep it from using up candidate slots.
    filters += " AND m.session_id <> ?";
    params.push(options.excludeSessionId);
  }
  const ranked = sort === "relevance";
  const rows = all(
    db,
    `SELECT f.docid, m.session_id, m.seq, m.role, m.timestamp, matchinfo(messages_fts, 'pcnalx')
     FROM messages_fts f JOIN messages m ON m.id = f.docid
     WHERE messages_fts MATCH ? AND m.active = 1${filters}
     ORDER BY f.docid ${sort === "oldest" ? "ASC" : "DESC"} LIMIT ${CANDIDATE_SCAN_LIMIT}`,
    params,
  );
  const candidates: Candidate[] = rows.map((r) => ({
    docid: Number(r[0]),
    sessionId: String(r[1]),
    seq: Number(r[2]),
    role: String(r[3]),
    timestamp: Number(r[4]),
    score: bm25(r[5] as Uint8Array),
  }));

  const sessions = new Sessions(db);
  try {
    const excludedRoot = options.excludeSessionId === undefined ? undefined : sessions.root(options.excludeSessionId);
    if (ranked) {
      for (const c of candidates) if (DEMOTED_SOURCES.has(sessions.row(c.sessionId)?.source ?? "")) c.score *= DEMOTION;
      // Ties (the same words in texts of the same length) go to the newer message.
      candidates.sort((a, b) => b.score - a.score || b.docid - a.docid);
    }
    const chosen: Candidate[] = [];
    const usedRoots = new Set<string>();
    for (const c of candidates) {
      const session = sessions.row(c.sessionId);
      if (session === null || HIDDEN_SOURCES.has(session.source)) continue;
      const root = sessions.root(c.sessionId);
      if (root === excludedRoot || usedRoots.has(root)) continue;
      usedRoots.add(root);
      chosen.push(c);
      if (chosen.length >= limit) break;
    }
    if (chosen.length === 0) return [];

    const snippets = snippetsFor(db, match, chosen.map((c) => c.docid));
    return chosen.map((c) => {
      const session = sessions.row(c.sessionId)!;
      return {
        sessionId: c.sessionId,
        rootSessionId: sessions.root(c.sessionId),
        title: session.title ?? sessions.row(sessions.root(c.sessionId))?.title ?? null,
        cwd: session.cwd,
        source: session.source,
        updatedAt: session.updatedAt,
        messageId: c.docid,
        seq: c.seq,
        role: c.role,
        timestamp: c.timestamp,
        snippet: snippets.get(c.docid) ?? "",
        score: c.score,
      };
    });
  } finally {
    sessions.free();
  }
}

/**
 * Up to `window` active messages before and after message `messageId` of session `sessionId`, with the message
 * itself. Undefined when the session has no such message. The anchor is included even if inactive (a hit found
 * earlier may have been compacted since), so the caller always sees what it asked about.
 */
export function scrollAround(db: Database, sessionId: string, messageId: number, window: number): MessageWindow | undefined {
  const anchor = all(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ? AND session_id = ?`, [messageId, sessionId])[0];
  if (!anchor) return undefined;
  const seq = Number(anchor[1]);
  const n = Math.max(0, Math.floor(window));
  const before = all(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 AND seq < ? ORDER BY seq DESC LIMIT ?`, [sessionId, seq, n]);
  const after = all(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 AND seq > ? ORDER BY seq LIMIT ?`, [sessionId, seq, n]);
  return { sessionId, anchorId: messageId, anchorSeq: seq, messages: [...before.reverse(), anchor, ...after].map(toView) };
}

function sessionSummary(row: SqlValue[]): SessionSummary {
  const [id, title, cwd, source, parent, createdAt, updatedAt, count] = row;
  const summary = { id: String(id), title: text(title), cwd: String(cwd), source: String(source), parentSessionId: text(parent) };
  return { ...summary, createdAt: Number(createdAt), updatedAt: Number(updatedAt), messageCount: Number(count) };
}

// Counting through the (session_id, active, seq) index, not trusting the denormalised sessions.message_count.
const SUMMARY_COLUMNS =
  "s.id, s.title, s.cwd, s.source, s.parent_session_id, s.created_at, s.updated_at, (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.active = 1)";

/** The session's first READ_HEAD and last READ_TAIL active messages (all of them when there are few). */
export function readSession(db: Database, sessionId: string): SessionRead | undefined {
  const row = all(db, `SELECT ${SUMMARY_COLUMNS} FROM sessions s WHERE s.id = ?`, [sessionId])[0];
  if (!row) return undefined;
  const session = sessionSummary(row);
  const head = all(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq LIMIT ?`, [sessionId, READ_HEAD + READ_TAIL]).map(toView);
  if (session.messageCount <= READ_HEAD + READ_TAIL) return { session, head, tail: [], omitted: 0 };
  const tail = all(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq DESC LIMIT ?`, [sessionId, READ_TAIL]).map(toView).reverse();
  return { session, head: head.slice(0, READ_HEAD), tail, omitted: session.messageCount - READ_HEAD - READ_TAIL };
}

/** The most recently updated sessions that have messages, newest first (hidden sources left out). */
export function browseSessions(db: Database, limit: number): SessionSummary[] {
  const hidden = [...HIDDEN_SOURCES];
  return all(
    db,
    `SELECT ${SUMMARY_COLUMNS} FROM sessions s
     WHERE s.source NOT IN (${hidden.map(() => "?").join(", ")})
       AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.active = 1)
     ORDER BY s.updated_at DESC LIMIT ?`,
    [...hidden, Math.max(1, Math.floor(limit))],
  ).map(sessionSummary);
}

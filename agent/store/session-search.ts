import type { Database, SqlValue } from "sql.js";
import { bm25 } from "./bm25.js";
import { buildFtsQuery } from "./fts-query.js";
import { HIDDEN_SOURCES, SessionLookup, type SessionRow } from "./session-lookup.js";
import { allRows as all } from "./sql-rows.js";

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
export interface SearchHit extends Pick<SessionRow, "title" | "cwd" | "source" | "updatedAt"> {
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

/**
 * How many of the newest (or, for sort=oldest, oldest) matching messages are considered. FTS4 has no ranking
 * index, so relevance is computed in JS over this candidate set; upstream scans 300 ranked rows for the same
 * purpose. One row per message, so a lineage with many matches can take several slots.
 */
export const CANDIDATE_SCAN_LIMIT = 300;
/**
 * Upstream demotes scheduled (cron) runs below interactive sessions: they repeat the same words every day and
 * would otherwise crowd the user's own conversations out of the results. Demoted, not hidden: they still show
 * when nothing else matches.
 */
const DEMOTED_SOURCES: ReadonlySet<string> = new Set(["cron"]);

type Candidate = Pick<SearchHit, "sessionId" | "seq" | "role" | "timestamp"> & {
  readonly docid: number;
  readonly score: number;
};

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
    snippetDb.run(
      `CREATE VIRTUAL TABLE snippets USING fts4(content, tool_name, tokenize=unicode61 "remove_diacritics=2")`,
    );
  }
  const ids = docids.map(() => "?").join(", ");
  const rows = all(db, `SELECT id, content, tool_name FROM messages WHERE id IN (${ids})`, [...docids]);
  const side = snippetDb;
  side.run("BEGIN");
  try {
    for (const row of rows) side.run("INSERT INTO snippets(docid, content, tool_name) VALUES (?, ?, ?)", row);
    const snippets = all(
      side,
      "SELECT docid, snippet(snippets, '>>>', '<<<', '...', -1, 12) FROM snippets WHERE snippets MATCH ?",
      [match],
    );
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

  const sessions = new SessionLookup(db);
  try {
    const excludedRoot = options.excludeSessionId === undefined ? undefined : sessions.root(options.excludeSessionId);
    const demoted = new Map(
      candidates.map((c) => [c, DEMOTED_SOURCES.has(sessions.row(c.sessionId)?.source ?? "") ? 1 : 0]),
    );
    // Cron runs go below every interactive hit, whatever the order; within each class relevance (ties to the newer
    // message) or, for newest/oldest, the message order stands (the sort is stable).
    candidates.sort(
      (a, b) => demoted.get(a)! - demoted.get(b)! || (ranked ? b.score - a.score || b.docid - a.docid : 0),
    );
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

    const snippets = snippetsFor(
      db,
      match,
      chosen.map((c) => c.docid),
    );
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

import type { Database } from "sql.js";
import { HIDDEN_SOURCES, type SessionLookup, type SessionRow, withSessionLookup } from "./session-lookup.js";
import { type SearchSort, searchMessages } from "./session-search.js";
import { anchoredView, findSessionByTitle, type StoredMessageView } from "./session-views.js";
import { allRows } from "./sql-rows.js";

/** adaptive: only the best result carries its window and bookends, the rest just the matched message. */
export type DiscoveryDetail = "adaptive" | "full";

export interface DiscoveryOptions {
  readonly query: string;
  readonly roles: readonly string[];
  /** Lineages returned, the title match included. */
  readonly limit: number;
  readonly sort: SearchSort;
  readonly detail: DiscoveryDetail;
  /** The caller's session: its lineage is already in the model's context and is left out. */
  readonly currentSessionId?: string;
}

export interface DiscoveredSession {
  /** The session holding the match (a lineage member; pairs with matchMessageId for scrolling). */
  readonly sessionId: string;
  readonly lineageRoot: string;
  /** The lineage root's row (when, source, model and title describe the whole conversation). */
  readonly meta: SessionRow;
  /** The matched message's role, or "session_title" when the query named the session's title. */
  readonly matchedRole: string;
  readonly matchMessageId: number | null;
  readonly snippet: string;
  readonly detail: "full" | "compact";
  readonly bookendStart: readonly StoredMessageView[];
  readonly messages: readonly StoredMessageView[];
  readonly bookendEnd: readonly StoredMessageView[];
  readonly messagesBefore: number;
  readonly messagesAfter: number;
}

export interface Discovery {
  readonly results: readonly DiscoveredSession[];
  /** Distinct lineages that matched (upstream's sessions_searched). */
  readonly sessionsSearched: number;
}

/** Upstream's discovery view: ±5 messages around the match, 3 messages in each bookend. */
export const DISCOVERY_WINDOW = 5;
export const DISCOVERY_BOOKEND = 3;

/** A model often quotes a remembered title: `"Fix the build"`, 'Fix the build' or `Fix the build`. */
export function normaliseTitleQuery(query: string): string {
  return query.trim().replace(/^[`'"]+|[`'"]+$/g, "");
}

function viewOf(db: Database, sessionId: string, messageId: number, full: boolean) {
  const view = anchoredView(db, sessionId, messageId, {
    window: DISCOVERY_WINDOW,
    bookend: full ? DISCOVERY_BOOKEND : 0,
  });
  if (!view) return undefined;
  return {
    bookendStart: view.bookendStart,
    messages: full ? view.messages : view.messages.filter((m) => m.id === messageId),
    bookendEnd: view.bookendEnd,
    messagesBefore: view.before,
    messagesAfter: view.after,
  };
}

/** The session whose title is the query, shown from its first message; never the caller's own lineage. */
function titleMatch(
  db: Database,
  sessions: SessionLookup,
  query: string,
  currentRoot: string | undefined,
): DiscoveredSession | undefined {
  const title = normaliseTitleQuery(query);
  const sessionId = findSessionByTitle(db, title);
  if (sessionId === undefined) return undefined;
  const root = sessions.root(sessionId);
  if (root === currentRoot) return undefined;
  const meta = sessions.row(root) ?? sessions.row(sessionId);
  if (!meta || HIDDEN_SOURCES.has(meta.source)) return undefined;
  const first = allRows(db, "SELECT id FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq LIMIT 1", [
    sessionId,
  ])[0];
  const anchor = first ? Number(first[0]) : null;
  const view = anchor === null ? undefined : viewOf(db, sessionId, anchor, true);
  return {
    sessionId,
    lineageRoot: root,
    meta,
    matchedRole: "session_title",
    matchMessageId: anchor,
    snippet: `Session title matched: ${meta.title ?? title}`,
    detail: "full",
    bookendStart: view?.bookendStart ?? [],
    messages: view?.messages ?? [],
    bookendEnd: view?.bookendEnd ?? [],
    messagesBefore: view?.messagesBefore ?? 0,
    messagesAfter: view?.messagesAfter ?? 0,
  };
}

/**
 * DISCOVERY: a session whose title is the query comes first, then the full-text hits, one per lineage, up to
 * `limit` lineages. The first result (or, with detail "full", every result) carries the window around its match
 * and the session's bookends; the others carry only the matched message, which is enough to choose one to scroll.
 */
export function discoverSessions(db: Database, options: DiscoveryOptions): Discovery {
  return withSessionLookup(db, (sessions) => {
    const currentRoot = options.currentSessionId === undefined ? undefined : sessions.root(options.currentSessionId);
    const results: DiscoveredSession[] = [];
    const title = titleMatch(db, sessions, options.query, currentRoot);
    if (title) results.push(title);
    const hits = searchMessages(db, {
      query: options.query,
      roles: options.roles,
      limit: options.limit,
      sort: options.sort,
      excludeSessionId: options.currentSessionId,
    })
      .filter((hit) => hit.rootSessionId !== title?.lineageRoot)
      .slice(0, Math.max(0, options.limit - results.length));
    for (const hit of hits) {
      const full = options.detail === "full" || results.length === 0;
      const view = viewOf(db, hit.sessionId, hit.messageId, full);
      const meta = sessions.row(hit.rootSessionId) ?? sessions.row(hit.sessionId);
      if (!view || !meta) continue;
      results.push({
        sessionId: hit.sessionId,
        lineageRoot: hit.rootSessionId,
        meta,
        matchedRole: hit.role,
        matchMessageId: hit.messageId,
        snippet: hit.snippet,
        detail: full ? "full" : "compact",
        ...view,
      });
    }
    return { results, sessionsSearched: results.length };
  });
}

import type { Database } from "sql.js";
import * as z from "zod/v4";
import { buildFtsQuery } from "../../store/fts-query.js";
import { discoverSessions } from "../../store/session-discovery.js";
import { browseSessions } from "../../store/session-views.js";
import { defineTool } from "../define-tool.js";
import { type ToolResult, toolError } from "../tool.js";
import { parseSessionReference, sessionLink } from "./session-links.js";
import { clampInt, nonEmpty, parseDetail, parseRoles, parseSort } from "./session-search-args.js";
import { discoveryResultJson, formatTimestamp } from "./session-search-json.js";
import { locateAndRead, openSearchTarget, readShape, type SearchTarget, scrollShape } from "./session-search-shapes.js";

const DEFAULT_LIMIT = 3;
const MAX_LIMIT = 10;

const json = (value: unknown): ToolResult => ({ content: JSON.stringify(value) });

function discover(
  db: Database,
  args: Readonly<Record<string, unknown>>,
  query: string,
  target: SearchTarget,
  limit: number,
): ToolResult {
  const detail = parseDetail(args.detail);
  const { results, sessionsSearched } = discoverSessions(db, {
    query,
    roles: parseRoles(args.role_filter ?? args.roles),
    limit,
    sort: parseSort(args.sort),
    detail,
    ...(target.currentSessionId !== undefined ? { currentSessionId: target.currentSessionId } : {}),
  });
  if (results.length === 0) {
    const message =
      buildFtsQuery(query) === undefined
        ? "The query has no searchable words (letters or digits), or only excluded ones."
        : "No matching sessions found.";
    return json({ success: true, mode: "discover", query, detail, results: [], count: 0, message });
  }
  const shaped = results.map((r) => discoveryResultJson(r, target.profile));
  return json({
    success: true,
    mode: "discover",
    query,
    detail,
    results: shaped,
    count: shaped.length,
    sessions_searched: sessionsSearched,
  });
}

function browse(db: Database, target: SearchTarget, limit: number): ToolResult {
  const sessions = browseSessions(db, {
    limit,
    ...(target.currentSessionId !== undefined ? { excludeSessionId: target.currentSessionId } : {}),
  });
  const results = sessions.map((s) => ({
    session_id: s.id,
    link: sessionLink(s.id, target.profile),
    title: s.title,
    source: s.source,
    cwd: s.cwd,
    started_at: s.startedAt,
    last_active: s.lastActive,
    when: formatTimestamp(s.lastActive),
    message_count: s.messageCount,
    preview: s.preview,
  }));
  return json({
    success: true,
    mode: "browse",
    results,
    count: results.length,
    message: `Showing ${results.length} most recent sessions. Pass a query= to search, or session_id+around_message_id to scroll.`,
  });
}

export const sessionSearchTool = defineTool({
  name: "session_search",
  toolsets: ["session_search"],
  kind: "other",
  description:
    "Search past sessions (your earlier conversations with this user) stored in the local session database, or read " +
    "inside one. Every shape returns actual stored messages; no summaries. It is conversation history only: when the " +
    "user gave a direct source (a file, URL, live system), look at that first.\n\n" +
    "FOUR CALLING SHAPES\n" +
    '1) DISCOVERY, pass `query` (e.g. query="auth refactor", limit=3): keyword search, one result per conversation ' +
    "(lineage), the current conversation left out. Each result has session_id, title, when, source, snippet " +
    "(>>>matched<<< words), match_message_id, messages_before/messages_after, link and detail. The first result " +
    '(every result with detail="full") is `full`: `messages` holds ±5 messages around the match (the matched one ' +
    "flagged anchor) and bookend_start/bookend_end the session's first and last 3 user/assistant messages, so goal → " +
    "match → outcome is there at once. Other results are `compact`: only the matched message.\n" +
    "2) SCROLL, pass `session_id` + `around_message_id` (window 1-20, default 5): the messages around one message. " +
    "To scroll forward pass the last message's id, backward the first's; fewer than `window` before or after means " +
    "you reached that end of the session.\n" +
    "3) READ, pass `session_id` only: the whole session (first 20 + last 10 messages when longer). This resolves an " +
    "`@session:<profile>/<id>` link the user dropped in: pass the link as session_id (or id and profile).\n" +
    "4) BROWSE, no arguments: the most recent sessions with titles, previews and times (what was I working on?).\n\n" +
    "LINKING: to refer the user to a session, write its `link` value (e.g. @session:default/<id>) inline, verbatim, " +
    "as a noun in the sentence; it shows as the session's title, so do not repeat the title or id beside it.\n\n" +
    'QUERY SYNTAX: all words must match; OR between alternatives (alpha OR beta); "exact phrase"; word* for a prefix ' +
    "(the last word is a prefix anyway); -word or NOT word to exclude. Accents and case are ignored. A query that is " +
    "a session's exact title finds that session first.",
  parameters: () =>
    z.object({
      query: z
        .string()
        .optional()
        .describe(
          "DISCOVERY: keywords, phrases or OR/NOT expressions to find in past sessions. Omit to browse. Ignored when session_id + around_message_id are set.",
        ),
      limit: z
        .int()
        .optional()
        .describe(
          "DISCOVERY and BROWSE: sessions returned (default 3, max 10). Raise to 5-10 when the topic likely spans several sessions.",
        ),
      sort: z
        .enum(["newest", "oldest"])
        .optional()
        .describe("DISCOVERY: omit for relevance; newest for 'where did we leave X', oldest for 'how did X start'."),
      detail: z
        .enum(["adaptive", "full"])
        .optional()
        .describe(
          "DISCOVERY: adaptive (default) gives the top result its window and bookends and the others only the matched message; full gives every result everything.",
        ),
      session_id: z
        .string()
        .optional()
        .describe(
          "SCROLL (with around_message_id) or READ (alone): a session_id from an earlier result, or an @session:<profile>/<id> link.",
        ),
      around_message_id: z
        .int()
        .optional()
        .describe("SCROLL: the message id to centre on (match_message_id, or any id from an earlier window)."),
      window: z.int().optional().describe("SCROLL: messages each side of the anchor, 1-20 (default 5)."),
      role_filter: z
        .string()
        .optional()
        .describe(
          "DISCOVERY: comma-separated roles searched (default 'user,assistant'; 'user,assistant,tool' to include tool output, 'tool' for tool output only).",
        ),
      profile: z
        .string()
        .optional()
        .describe(
          "Read another Hermes profile's sessions (read-only), e.g. the profile part of an @session:<profile>/<id> link. Omit for the current profile.",
        ),
    }),
  async run(args, ctx) {
    const access = ctx.sessions;
    if (!access)
      return toolError("Session history is not available in this front end: there is no session store to search.");
    const reference =
      nonEmpty(args.session_id) === undefined
        ? undefined
        : parseSessionReference(String(args.session_id), nonEmpty(args.profile));
    const profile = reference?.profile ?? nonEmpty(args.profile);
    let target: SearchTarget;
    try {
      target = await openSearchTarget(access, ctx.home, profile);
    } catch (error) {
      return toolError(error instanceof Error ? error.message : String(error));
    }
    try {
      const db = target.db;
      if (reference?.sessionId && args.around_message_id !== undefined && args.around_message_id !== null) {
        return scrollShape(db, reference.sessionId, args.around_message_id, args.window, target);
      }
      if (reference?.sessionId) {
        return (
          readShape(db, reference.sessionId, target) ??
          (await locateAndRead(ctx.home, target.home, reference.sessionId))
        );
      }
      const limit = clampInt(args.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
      const query = nonEmpty(args.query);
      return query === undefined ? browse(db, target, limit) : discover(db, args, query, target, limit);
    } catch (error) {
      return toolError(`Session search failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      target.close();
    }
  },
});

import type { Database } from "sql.js";
import { buildFtsQuery } from "../../store/fts-query.js";
import {
  browseSessions,
  readSession,
  scrollAround,
  searchMessages,
  type SearchHit,
  type SearchSort,
  type SessionSummary,
  type StoredMessageView,
} from "../../store/session-search.js";
import { toolError, type Tool, type ToolContext, type ToolResult } from "../tool.js";


const ROLES = ["user", "assistant", "tool", "system"] as const;
const DEFAULT_ROLES = ["user", "assistant"];
const DEFAULT_LIMIT = 3;
const MAX_LIMIT = 10;
const DEFAULT_WINDOW = 5;
const MAX_WINDOW = 20;
/** A small discovery window when many results are asked for, so ten results do not flood the context. */
const WIDE_DISCOVERY_WINDOW = 2;
const BROWSE_DEFAULT = 10;
/** Characters of each message shown, by mode: discovery is a survey, scroll and read are for reading. */
const DISCOVERY_CHARS = 300;
const HIT_CHARS = 800;
const SCROLL_CHARS = 2000;
const READ_CHARS = 1000;

function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.trunc(n))) : fallback;
}

/** Roles as an array or a comma-separated string; unknown names dropped; nothing valid → the default. */
function parseRoles(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  const roles = raw.flatMap((r) => (typeof r === "string" ? [r.trim().toLowerCase()] : [])).filter((r) => (ROLES as readonly string[]).includes(r));
  return roles.length > 0 ? [...new Set(roles)] : DEFAULT_ROLES;
}

function parseSort(value: unknown): SearchSort {
  return value === "newest" || value === "oldest" ? value : "relevance";
}

/** Store timestamps are Unix seconds (Python's time.time()); milliseconds are recognised too, to be safe. */
export function formatWhen(timestamp: number, now = Date.now()): string {
  const ms = timestamp > 1e11 ? timestamp : timestamp * 1000;
  if (!Number.isFinite(ms) || ms <= 0) return "unknown";
  const absolute = `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const minutes = Math.floor((now - ms) / 60_000);
  const days = Math.floor(minutes / 1440);
  const ago =
    minutes < 1 ? "just now"
    : minutes < 60 ? `${minutes} min ago`
    : minutes < 48 * 60 ? `${Math.floor(minutes / 60)} h ago`
    : days < 60 ? `${days} days ago`
    : days < 730 ? `${Math.floor(days / 30)} months ago`
    : `${Math.floor(days / 365)} years ago`;
  return minutes < 0 ? absolute : `${absolute} (${ago})`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [+${text.length - max} chars]`;
}

function messageJson(m: StoredMessageView, maxChars: number, anchorId?: number): Record<string, unknown> {
  return {
    message_id: m.id,
    role: m.role,
    ...(m.toolName ? { tool_name: m.toolName } : {}),
    ...(m.content ? { content: clip(m.content, m.id === anchorId ? Math.max(maxChars, HIT_CHARS) : maxChars) } : {}),
    ...(m.toolCalls.length > 0 ? { tool_calls: m.toolCalls } : {}),
    ...(m.id === anchorId ? { match: true } : {}),
  };
}

function sessionJson(s: SessionSummary, currentSessionId: string): Record<string, unknown> {
  return {
    session_id: s.id,
    title: s.title,
    cwd: s.cwd,
    when: formatWhen(s.updatedAt),
    started: formatWhen(s.createdAt),
    message_count: s.messageCount,
    ...(s.parentSessionId ? { parent_session_id: s.parentSessionId } : {}),
    ...(s.id === currentSessionId ? { current: true } : {}),
  };
}

const json = (value: unknown): ToolResult => ({ content: JSON.stringify(value) });

function discover(db: Database, args: Readonly<Record<string, unknown>>, query: string, currentSessionId: string): ToolResult {
  const limit = clampInt(args.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
  const sort = parseSort(args.sort);
  const roles = parseRoles(args.roles);
  const window = args.window === undefined ? (limit <= DEFAULT_LIMIT ? DEFAULT_WINDOW : WIDE_DISCOVERY_WINDOW) : clampInt(args.window, DEFAULT_WINDOW, 1, MAX_WINDOW);
  if (buildFtsQuery(query) === undefined) {
    return json({ mode: "discovery", query, count: 0, results: [], message: "The query has no searchable words (letters or digits), or only excluded ones." });
  }
  const hits = searchMessages(db, { query, roles, limit, sort, excludeSessionId: currentSessionId });
  const results = hits.map((hit: SearchHit) => ({
    session_id: hit.sessionId,
    title: hit.title,
    cwd: hit.cwd,
    when: formatWhen(hit.timestamp),
    message_id: hit.messageId,
    role: hit.role,
    snippet: hit.snippet,
    score: Math.round(hit.score * 100) / 100,
    window: (scrollAround(db, hit.sessionId, hit.messageId, window)?.messages ?? []).map((m) => messageJson(m, DISCOVERY_CHARS, hit.messageId)),
  }));
  return json({
    mode: "discovery",
    query,
    sort,
    roles,
    count: results.length,
    results,
    ...(results.length === 0
      ? { message: "No matching messages in other sessions. Try fewer or different keywords, a word stem with *, or OR between alternatives." }
      : { next: "Read more around a hit with session_id and around_message_id (window up to 20), or a whole session with session_id alone." }),
  });
}

function scroll(db: Database, sessionId: string, aroundId: number, args: Readonly<Record<string, unknown>>): ToolResult {
  const window = clampInt(args.window, DEFAULT_WINDOW, 1, MAX_WINDOW);
  const found = scrollAround(db, sessionId, aroundId, window);
  if (!found) return toolError(`No message ${aroundId} in session ${sessionId}.`);
  return json({
    mode: "scroll",
    session_id: sessionId,
    around_message_id: aroundId,
    window,
    messages: found.messages.map((m) => messageJson(m, SCROLL_CHARS, aroundId)),
  });
}

function read(db: Database, sessionId: string, currentSessionId: string): ToolResult {
  const found = readSession(db, sessionId);
  if (!found) return toolError(`No session with id ${sessionId}. Call session_search with no arguments to list recent sessions.`);
  return json({
    mode: "read",
    session: sessionJson(found.session, currentSessionId),
    first: found.head.map((m) => messageJson(m, READ_CHARS)),
    ...(found.omitted > 0 ? { omitted: found.omitted, last: found.tail.map((m) => messageJson(m, READ_CHARS)) } : {}),
  });
}

export const sessionSearchTool: Tool = {
  name: "session_search",
  description:
    "Search and read your past conversations (sessions) with this user. Four ways to call it:\n" +
    "- query: keyword search over past sessions (not the current one); best match per session with a snippet " +
    "(>>>matched<<< words) and the messages around it. Use keywords, not sentences: all words must match; " +
    '"exact phrase", word* for a prefix, OR between alternatives, -word or NOT word to exclude. Accents are ignored.\n' +
    "- session_id + around_message_id: the messages around one message (window each side, default 5, max 20).\n" +
    "- session_id alone: read a session (first 20 and last 10 messages).\n" +
    "- no arguments: list the most recent sessions.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", description: "Keywords to search for in past sessions." },
      session_id: { type: "string", description: "A session to read, or to scroll with around_message_id." },
      around_message_id: { type: "integer", description: "With session_id: show the messages around this message id." },
      window: { type: "integer", description: "Messages shown on each side of a message (1-20, default 5)." },
      limit: { type: "integer", description: "Sessions returned by a search (1-10, default 3); sessions listed with no arguments (default 10)." },
      roles: {
        type: "array",
        items: { type: "string", enum: [...ROLES] },
        description: 'Message roles searched (default ["user", "assistant"]; add "tool" to search tool output).',
      },
      sort: { type: "string", enum: ["relevance", "newest", "oldest"], description: "Order of search results (default relevance)." },
    },
  },
  async run(args, ctx) {
    const access = ctx.sessions;
    if (!access) return toolError("Session history is not available in this front end: there is no session store to search.");
    let db: Database;
    try {
      db = await access.database();
    } catch (error) {
      return toolError(`Could not open the session store: ${error instanceof Error ? error.message : String(error)}`);
    }
    const query = typeof args.query === "string" ? args.query.trim() : "";
    const sessionId = typeof args.session_id === "string" ? args.session_id.trim() : "";
    const aroundId = clampInt(args.around_message_id, NaN, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    try {
      if (query) return discover(db, args, query, access.currentSessionId);
      if (sessionId && Number.isFinite(aroundId)) return scroll(db, sessionId, aroundId, args);
      if (Number.isFinite(aroundId)) return toolError("around_message_id needs the session_id it belongs to.");
      if (sessionId) return read(db, sessionId, access.currentSessionId);
      const limit = clampInt(args.limit, BROWSE_DEFAULT, 1, MAX_LIMIT * 5);
      return json({
        mode: "browse",
        sessions: browseSessions(db, limit).map((s) => sessionJson(s, access.currentSessionId)),
        next: "Search with query, or read a session with session_id.",
      });
    } catch (error) {
      return toolError(`Session search failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
};

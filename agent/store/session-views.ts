import type { Database, SqlValue } from "sql.js";
import { HIDDEN_SOURCES, type SessionRow, withSessionLookup } from "./session-lookup.js";
import { allRows, textOrNull } from "./sql-rows.js";

/**
 * Read-only views of stored sessions for session_search: a window of messages around one message, the same window
 * with the session's opening and closing messages ("bookends"), a whole session (head and tail when long), the
 * most recent sessions, and a session found by its title. Every query goes through an index (messages by
 * (session_id, active, seq) or by id, sessions by updated_at or title): nothing here scans a table.
 */

export interface StoredMessageView {
  readonly id: number;
  readonly seq: number;
  readonly role: string;
  readonly content: string | null;
  readonly toolName: string | null;
  readonly toolCallId: string | null;
  /** The calls an assistant message made, as stored ([{id, name, arguments}]); empty when none. */
  readonly toolCalls: readonly unknown[];
  readonly timestamp: number;
}

/** Messages in order, and how many of them come before and after the anchor. */
export interface MessageSlice {
  readonly messages: readonly StoredMessageView[];
  readonly before: number;
  readonly after: number;
}

export interface AnchoredView extends MessageSlice {
  /** The session's first messages (before the window): what the conversation set out to do. */
  readonly bookendStart: readonly StoredMessageView[];
  /** Its last messages (after the window): where it ended. */
  readonly bookendEnd: readonly StoredMessageView[];
}

export interface SessionTranscript {
  readonly session: SessionRow;
  /** Active messages in the session. */
  readonly total: number;
  /** Only the head and tail are in `messages`. */
  readonly truncated: boolean;
  readonly messages: readonly StoredMessageView[];
}

export interface SessionListing {
  readonly id: string;
  readonly title: string | null;
  readonly source: string;
  readonly cwd: string;
  readonly startedAt: number;
  /** Time of the last active message. */
  readonly lastActive: number;
  readonly messageCount: number;
  /** The first user message on one line, 60 characters and "..." when longer ("" when there is none). */
  readonly preview: string;
}

/**
 * Generated context-compaction handoffs (agent/compress) are stored as ordinary messages. In a bookend they would
 * bring a whole summary back into a fresh context, so bookends leave them out (upstream #43175).
 */
export const COMPACTION_PREFIXES: readonly string[] = ["[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:"];

export function isCompactionSummary(content: string | null): boolean {
  const trimmed = (content ?? "").trimStart();
  return COMPACTION_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}

const MESSAGE_COLUMNS = "id, seq, role, content, tool_name, tool_call_id, tool_calls, timestamp";
const LEADING_SPACE = "' ' || char(9, 10, 11, 12, 13)";
const NOT_COMPACTION_SQL = COMPACTION_PREFIXES.map(
  (p) => ` AND substr(ltrim(content, ${LEADING_SPACE}), 1, ${[...p].length}) <> ?`,
).join("");
const PREVIEW_CHARS = 60;

function parseToolCalls(value: SqlValue): unknown[] {
  if (typeof value !== "string" || value === "") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function toView(row: SqlValue[]): StoredMessageView {
  const [id, seq, role, content, toolName, toolCallId, toolCalls, timestamp] = row;
  return {
    id: Number(id),
    seq: Number(seq),
    role: String(role),
    content: textOrNull(content),
    toolName: textOrNull(toolName),
    toolCallId: textOrNull(toolCallId),
    toolCalls: parseToolCalls(toolCalls ?? null),
    timestamp: Number(timestamp),
  };
}

/** The session a message belongs to, and whether it is still in that session's live history. */
export function messageOwner(
  db: Database,
  messageId: number,
): { readonly sessionId: string; readonly active: boolean } | undefined {
  const row = allRows(db, "SELECT session_id, active FROM messages WHERE id = ?", [messageId])[0];
  return row ? { sessionId: String(row[0]), active: Number(row[1]) === 1 } : undefined;
}

/**
 * Up to `window` active messages before and after message `messageId` of session `sessionId`, with the message
 * itself; undefined when the session has no such message. The anchor is included even if inactive (a hit found
 * earlier may have been compacted since), so the caller always sees what it asked about.
 */
export function messagesAround(
  db: Database,
  sessionId: string,
  messageId: number,
  window: number,
): MessageSlice | undefined {
  const anchor = allRows(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ? AND session_id = ?`, [
    messageId,
    sessionId,
  ])[0];
  if (!anchor) return undefined;
  const seq = Number(anchor[1]);
  const n = Math.max(0, Math.floor(window));
  const before = allRows(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 AND seq < ? ORDER BY seq DESC LIMIT ?`,
    [sessionId, seq, n],
  );
  const after = allRows(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 AND seq > ? ORDER BY seq LIMIT ?`,
    [sessionId, seq, n],
  );
  return { messages: [...before.reverse(), anchor, ...after].map(toView), before: before.length, after: after.length };
}

export interface AnchoredViewOptions {
  /** Messages each side of the anchor (default 5). */
  readonly window?: number;
  /** Messages in each bookend (default 3). */
  readonly bookend?: number;
  /** Roles kept in the window (the anchor always stays) and in the bookends (default user and assistant). */
  readonly keepRoles?: readonly string[];
}

/**
 * The window around a message, with tool traffic dropped from it, plus bookends: the first and last `bookend`
 * user/assistant messages with text that lie outside the window (none when the window already reaches that end of
 * the session), compaction summaries left out. A hit anywhere in a long session thus shows the goal, the match
 * and the outcome in one call without the whole transcript.
 */
export function anchoredView(
  db: Database,
  sessionId: string,
  messageId: number,
  options: AnchoredViewOptions = {},
): AnchoredView | undefined {
  const slice = messagesAround(db, sessionId, messageId, options.window ?? 5);
  if (!slice) return undefined;
  const keepRoles = options.keepRoles ?? ["user", "assistant"];
  const bookend = Math.max(0, Math.floor(options.bookend ?? 3));
  const messages = slice.messages.filter((m) => m.id === messageId || keepRoles.includes(m.role));
  if (bookend === 0 || keepRoles.length === 0) return { ...slice, messages, bookendStart: [], bookendEnd: [] };
  const first = slice.messages[0]!.seq;
  const last = slice.messages[slice.messages.length - 1]!.seq;
  const roles = `role IN (${keepRoles.map(() => "?").join(", ")})`;
  const filters = `${roles} AND length(content) > 0${NOT_COMPACTION_SQL}`;
  const params = [...keepRoles, ...COMPACTION_PREFIXES];
  const start = allRows(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 AND seq < ? AND ${filters} ORDER BY seq LIMIT ?`,
    [sessionId, first, ...params, bookend],
  );
  const end = allRows(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 AND seq > ? AND ${filters} ORDER BY seq DESC LIMIT ?`,
    [sessionId, last, ...params, bookend],
  );
  return { ...slice, messages, bookendStart: start.map(toView), bookendEnd: end.reverse().map(toView) };
}

/** The session's active messages: all of them, or the first `head` and last `tail` when there are more. */
export function readSession(db: Database, sessionId: string, head = 20, tail = 10): SessionTranscript | undefined {
  const session = withSessionLookup(db, (sessions) => sessions.row(sessionId));
  if (!session) return undefined;
  const total = Number(
    allRows(db, "SELECT count(*) FROM messages WHERE session_id = ? AND active = 1", [sessionId])[0]![0],
  );
  const first = allRows(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq LIMIT ?`,
    [sessionId, head + tail],
  ).map(toView);
  if (total <= head + tail) return { session, total, truncated: false, messages: first };
  const last = allRows(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq DESC LIMIT ?`,
    [sessionId, tail],
  )
    .map(toView)
    .reverse();
  return { session, total, truncated: true, messages: [...first.slice(0, head), ...last] };
}

function previewOf(raw: SqlValue | undefined): string {
  const text = (textOrNull(raw ?? null) ?? "").trim();
  if (!text) return "";
  return [...text].length > PREVIEW_CHARS ? `${[...text].slice(0, PREVIEW_CHARS).join("")}...` : text;
}

/**
 * The most recently active sessions that have messages, newest first; hidden sources and `excludeSessionId` (the
 * caller's own session) left out. The preview is the first user message the session ever had, compacted or not.
 */
export function browseSessions(
  db: Database,
  options: { readonly limit: number; readonly excludeSessionId?: string },
): SessionListing[] {
  const hidden = [...HIDDEN_SOURCES];
  return allRows(
    db,
    `SELECT s.id, s.title, s.source, s.cwd, s.created_at,
       (SELECT m.timestamp FROM messages m WHERE m.session_id = s.id AND m.active = 1 ORDER BY m.seq DESC LIMIT 1),
       (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.active = 1),
       (SELECT substr(replace(replace(m.content, char(10), ' '), char(13), ' '), 1, ${PREVIEW_CHARS + 3}) FROM messages m
         WHERE m.session_id = s.id AND m.role = 'user' AND m.content IS NOT NULL ORDER BY m.seq LIMIT 1)
     FROM sessions s
     WHERE s.source NOT IN (${hidden.map(() => "?").join(", ")}) AND s.id <> ?
       AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.active = 1)
     ORDER BY s.updated_at DESC LIMIT ?`,
    [...hidden, options.excludeSessionId ?? "", Math.max(1, Math.floor(options.limit))],
  ).map((r) => ({
    id: String(r[0]),
    title: textOrNull(r[1]),
    source: String(r[2]),
    cwd: String(r[3]),
    startedAt: Number(r[4]),
    lastActive: r[5] === null ? Number(r[4]) : Number(r[5]),
    messageCount: Number(r[6]),
    preview: previewOf(r[7]),
  }));
}

/**
 * The session a remembered title names (upstream's resolve_session_by_title): the newest "title #N" continuation
 * when there is one, else the newest session with exactly that title. Range queries on the title index.
 */
export function findSessionByTitle(db: Database, title: string): string | undefined {
  if (title === "") return undefined;
  const prefix = `${title} #`;
  const numbered = allRows(
    db,
    "SELECT id FROM sessions WHERE title >= ? AND title < ? ORDER BY created_at DESC LIMIT 1",
    [prefix, `${prefix}\u{10FFFF}`],
  )[0];
  if (numbered) return String(numbered[0]);
  const exact = allRows(db, "SELECT id FROM sessions WHERE title = ? ORDER BY created_at DESC LIMIT 1", [title])[0];
  return exact ? String(exact[0]) : undefined;
}

import type { DiscoveredSession } from "../../store/session-discovery.js";
import type { SessionRow } from "../../store/session-lookup.js";
import type { StoredMessageView } from "../../store/session-views.js";
import { stripAnsi } from "../safety/command-normalise.js";
import { sessionLink } from "./session-links.js";

/**
 * The JSON session_search answers with, in upstream's shapes and field names, so a model (or a prompt) written for
 * the Python Hermes reads ours the same way.
 */

/** Characters of message text kept, by where the message appears (upstream: window 4000, bookends 1200). */
export const CONTENT_CHARS = {
  window: 4000,
  bookend: 1200,
  /** Upstream sends scroll and read messages whole; one long tool output would then flood the context, so they
   * are capped too, generously, and marked so the model knows what it is not seeing. */
  scroll: 8000,
  read: 4000,
} as const;
/** Tool call arguments (a whole file for write_file) are cut to this many characters. */
const TOOL_ARGUMENT_CHARS = 2000;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Unix seconds as upstream shows them (`%B %d, %Y at %I:%M %p`, local time): "November 14, 2023 at 10:13 PM".
 * Milliseconds are recognised too; nothing usable gives "unknown".
 */
export function formatTimestamp(timestamp: number | null | undefined): string {
  if (timestamp === null || timestamp === undefined || !Number.isFinite(timestamp) || timestamp <= 0) return "unknown";
  const date = new Date(timestamp > 1e11 ? timestamp : timestamp * 1000);
  if (Number.isNaN(date.getTime())) return "unknown";
  const hours = date.getHours() % 12 === 0 ? 12 : date.getHours() % 12;
  const meridiem = date.getHours() < 12 ? "AM" : "PM";
  return `${MONTHS[date.getMonth()]} ${pad(date.getDate())}, ${date.getFullYear()} at ${pad(hours)}:${pad(date.getMinutes())} ${meridiem}`;
}

function clipArguments(call: unknown): unknown {
  if (typeof call !== "object" || call === null) return call;
  const record = call as Record<string, unknown>;
  const fn = record.function as Record<string, unknown> | undefined;
  const clip = (value: unknown) =>
    typeof value === "string" && value.length > TOOL_ARGUMENT_CHARS
      ? `${value.slice(0, TOOL_ARGUMENT_CHARS)}… [${value.length} chars]`
      : value;
  if (typeof fn === "object" && fn !== null) return { ...record, function: { ...fn, arguments: clip(fn.arguments) } };
  return "arguments" in record ? { ...record, arguments: clip(record.arguments) } : record;
}

/**
 * One message: id (what around_message_id takes), role, content (kept even when empty: a tool-call-only turn),
 * timestamp, and when present tool_name, tool_calls, tool_call_id, `anchor: true` on the message asked about, and
 * content_truncated / original_content_chars when the text was cut. Terminal colour codes are removed.
 */
export function shapeMessage(
  m: StoredMessageView,
  maxChars: number,
  anchorId?: number | null,
): Record<string, unknown> {
  let content = m.content;
  if (content?.includes("\x1b")) content = stripAnsi(content);
  const truncated = content !== null && content.length > maxChars;
  return {
    id: m.id,
    role: m.role,
    content: truncated ? `${content!.slice(0, maxChars)}…` : content,
    timestamp: m.timestamp,
    ...(m.toolName ? { tool_name: m.toolName } : {}),
    ...(m.toolCalls.length > 0 ? { tool_calls: m.toolCalls.map(clipArguments) } : {}),
    ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
    ...(anchorId !== undefined && anchorId !== null && m.id === anchorId ? { anchor: true } : {}),
    ...(truncated ? { content_truncated: true, original_content_chars: content!.length } : {}),
  };
}

/** What scroll and read say about the session. */
export function sessionMetaJson(session: SessionRow): Record<string, unknown> {
  return {
    when: formatTimestamp(session.createdAt),
    source: session.source,
    model: session.model,
    title: session.title,
    cwd: session.cwd,
  };
}

/** One discovery result; `profile` names the profile for the link. */
export function discoveryResultJson(result: DiscoveredSession, profile: string): Record<string, unknown> {
  const { meta } = result;
  return {
    session_id: result.sessionId,
    when: formatTimestamp(meta.createdAt),
    source: meta.source || "unknown",
    model: meta.model || "unknown",
    title: meta.title || null,
    cwd: meta.cwd,
    matched_role: result.matchedRole,
    match_message_id: result.matchMessageId,
    snippet: result.snippet,
    bookend_start: result.bookendStart.map((m) => shapeMessage(m, CONTENT_CHARS.bookend)),
    messages: result.messages.map((m) => shapeMessage(m, CONTENT_CHARS.window, result.matchMessageId)),
    bookend_end: result.bookendEnd.map((m) => shapeMessage(m, CONTENT_CHARS.bookend)),
    messages_before: result.messagesBefore,
    messages_after: result.messagesAfter,
    detail: result.detail,
    ...(result.lineageRoot !== result.sessionId ? { parent_session_id: result.lineageRoot } : {}),
    link: sessionLink(result.sessionId, profile),
  };
}

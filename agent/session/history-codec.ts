import { userTextWithPlaceholders } from "../providers/image-parts.js";
import type { ChatMessage } from "../providers/messages.js";
import type { StoredMessage } from "../store/store-records.js";

/**
 * The engine's history entries as stored rows, numbered from `firstSeq`. Image bytes are not stored (a few
 * screenshots would bloat the database and every search over it): each image leaves a placeholder such as
 * "[image: screenshot.png, image/png, 34 KB]", so a reloaded session knows an image was there but no longer sends it.
 */
export function toStoredMessages(
  messages: readonly ChatMessage[],
  firstSeq: number,
  toolNames: ReadonlyMap<string, string>,
): StoredMessage[] {
  const now = Date.now() / 1000;
  return messages.map((m, i) => {
    const seq = firstSeq + i;
    if (m.role === "user") return { seq, role: "user", content: userTextWithPlaceholders(m), timestamp: now };
    if (m.role === "tool")
      return {
        seq,
        role: "tool",
        content: m.content,
        toolCallId: m.toolCallId,
        toolName: toolNames.get(m.toolCallId),
        timestamp: now,
      };
    return {
      seq,
      role: "assistant",
      content: m.content,
      ...(m.toolCalls?.length
        ? { toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) }
        : {}),
      ...(m.reasoning ? { reasoning: m.reasoning } : {}),
      timestamp: now,
    };
  });
}

/** Stored rows back into the engine's history. */
export function fromStoredMessages(rows: readonly StoredMessage[]): ChatMessage[] {
  return rows.map((row) => {
    if (row.role === "user") return { role: "user", content: row.content };
    if (row.role === "tool") return { role: "tool", toolCallId: row.toolCallId ?? "", content: row.content };
    return {
      role: "assistant",
      content: row.content,
      ...(row.toolCalls?.length ? { toolCalls: row.toolCalls } : {}),
      ...(row.reasoning ? { reasoning: row.reasoning } : {}),
    };
  });
}

/** Tool-call id → tool name, for the names stored with tool results (search shows them). */
export function toolNamesOf(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) if (m.role === "assistant") for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
  return names;
}

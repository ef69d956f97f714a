import type { ChatMessage } from "../providers/messages.js";
import type { TodoItem } from "../tools/session-tool-state.js";

/**
 * Upstream's header for the task list re-injected after a compression; it also marks that user message as
 * synthetic, so a later compression does not mistake it for the user's latest request.
 */
export const TODO_SNAPSHOT_HEADER = "[Your active task list was preserved across context compression]";

const MARKERS: Readonly<Record<TodoItem["status"], string>> = { pending: "[ ]", in_progress: "[>]", completed: "[x]", cancelled: "[~]" };

/**
 * The task list as the model gets it back after a compression (upstream's format_for_injection): only the pending
 * and in-progress items, since finished ones tempt the model to do them again. Undefined when none is active.
 */
export function formatTodoSnapshot(todos: readonly TodoItem[]): string | undefined {
  const active = todos.filter((t) => t.status === "pending" || t.status === "in_progress");
  if (active.length === 0) return undefined;
  return [TODO_SNAPSHOT_HEADER, ...active.map((t) => `- ${MARKERS[t.status]} ${t.id}. ${t.content} (${t.status})`)].join("\n");
}

export function isTodoSnapshotMessage(message: ChatMessage): boolean {
  return message.role === "user" && message.content.startsWith(TODO_SNAPSHOT_HEADER);
}

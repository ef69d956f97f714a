import type { ChatMessage, UserMessage } from "../providers/messages.js";
import type { TodoItem } from "../tools/session-tool-state.js";

/**
 * Upstream's header for the task list re-injected after a compression; it also marks that user message as
 * synthetic, so a later compression does not mistake it for the user's latest request.
 */
export const TODO_SNAPSHOT_HEADER = "[Your active task list was preserved across context compression]";

const MARKERS: Readonly<Record<TodoItem["status"], string>> = {
  pending: "[ ]",
  in_progress: "[>]",
  completed: "[x]",
  cancelled: "[~]",
};

/**
 * The task list as the model gets it back after a compression (upstream's format_for_injection): only the pending
 * and in-progress items, since finished ones tempt the model to do them again. Undefined when none is active.
 */
export function formatTodoSnapshot(todos: readonly TodoItem[]): string | undefined {
  const active = todos.filter((t) => t.status === "pending" || t.status === "in_progress");
  if (active.length === 0) return undefined;
  return [
    TODO_SNAPSHOT_HEADER,
    ...active.map((t) => `- ${MARKERS[t.status]} ${t.id}. ${t.content} (${t.status})`),
  ].join("\n");
}

/** A user message that is only a re-injected task list (joined to words, a snapshot goes after them). */
export function isTodoSnapshotMessage(message: ChatMessage): boolean {
  return message.role === "user" && message.content.startsWith(TODO_SNAPSHOT_HEADER);
}

/**
 * Two user messages as one. Chat templates with strict user/assistant alternation (Mistral, Gemma on vLLM or
 * llama.cpp) reject two in a row ("roles must alternate"), so the history never holds them. A task list goes after
 * the words it is joined to, as at the start of a turn: the message still reads as the user's request, and the list
 * is found by its header. Images stay with the words they came with.
 */
export function joinUserMessages(first: UserMessage, second: UserMessage): UserMessage {
  const [before, after] =
    isTodoSnapshotMessage(first) && !isTodoSnapshotMessage(second) ? [second, first] : [first, second];
  const images = [...(first.images ?? []), ...(second.images ?? [])];
  return { role: "user", content: `${before.content}\n\n${after.content}`, ...(images.length > 0 ? { images } : {}) };
}

/** Adds a user message to the history, joined to the last one when that is a user message too (see above). */
export function pushUserMessage(history: ChatMessage[], message: UserMessage): void {
  const last = history[history.length - 1];
  if (last?.role === "user") history[history.length - 1] = joinUserMessages(last, message);
  else history.push(message);
}

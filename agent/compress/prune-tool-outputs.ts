import type { ChatMessage } from "../providers/messages.js";

/** Upstream's placeholder, word for word, so histories look the same to the model whichever agent pruned them. */
export const PRUNED_TOOL_OUTPUT = "[Old tool output cleared to save context space]";

/** Outputs at most this long are kept: replacing them would save next to nothing and lose a useful line. */
export const PRUNE_MIN_CHARS = 200;

export interface PruneResult {
  readonly messages: ChatMessage[];
  /** How many tool results were replaced. */
  readonly pruned: number;
  readonly savedChars: number;
}

/**
 * Phase 1 of compression, no model call: the content of large tool results before `protectFrom` (the start of the
 * protected tail) becomes the placeholder. The results themselves stay, so every tool call keeps its answer and
 * the history stays well-formed. Returns new message objects only for what changed.
 */
export function pruneToolOutputs(messages: readonly ChatMessage[], protectFrom: number): PruneResult {
  let pruned = 0;
  let savedChars = 0;
  const out = messages.map((message, index): ChatMessage => {
    if (index >= protectFrom || message.role !== "tool") return message;
    if (message.content.length <= PRUNE_MIN_CHARS || message.content === PRUNED_TOOL_OUTPUT) return message;
    pruned++;
    savedChars += message.content.length - PRUNED_TOOL_OUTPUT.length;
    return { ...message, content: PRUNED_TOOL_OUTPUT };
  });
  return { messages: out, pruned, savedChars };
}

import { IMAGE_TOKEN_ESTIMATE } from "../providers/image-parts.js";
import type { ChatMessage, ToolSchema } from "../providers/messages.js";

/**
 * Rough token counts, good enough to decide when to compress and to report what it saved. Tokenizers differ per
 * provider; upstream uses the same ~4 characters per token rule of thumb. CJK text is much denser (about one token
 * per character), so counting it at a quarter would let a Chinese or Japanese session overflow long before the
 * threshold fired.
 */
export const CHARS_PER_TOKEN = 4;

/** Role markers and separators every message costs on the wire, whatever its content. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

// Han (incl. extensions), kana, Hangul, CJK punctuation and full-width forms.
const CJK =
  /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{2fa1f}]/gu;

export function estimateTextTokens(text: string): number {
  if (!text) return 0;
  let cjkChars = 0;
  let cjkUnits = 0;
  for (const match of text.matchAll(CJK)) {
    cjkChars++;
    cjkUnits += match[0].length;
  }
  return cjkChars + Math.ceil((text.length - cjkUnits) / CHARS_PER_TOKEN);
}

/**
 * One message as the provider sees it: content, tool call names and arguments, the call id a result answers.
 * Reasoning is left out: the providers here do not send it back. Each attached image counts a fixed cost.
 */
export function estimateMessageTokens(message: ChatMessage): number {
  // Every model step counts the whole history: each message is counted once (history entries are never changed in
  // place), so a step's count does not grow with the size of what was said before.
  const known = messageTokens.get(message);
  if (known !== undefined) return known;
  const tokens = countMessageTokens(message);
  messageTokens.set(message, tokens);
  return tokens;
}

const messageTokens = new WeakMap<ChatMessage, number>();

function countMessageTokens(message: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.content);
  if (message.role === "assistant") {
    for (const call of message.toolCalls ?? [])
      tokens += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(call.name) + estimateTextTokens(call.arguments);
  } else if (message.role === "tool") {
    tokens += estimateTextTokens(message.toolCallId);
  } else {
    tokens += (message.images?.length ?? 0) * IMAGE_TOKEN_ESTIMATE;
  }
  return tokens;
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** What every request carries besides the history (system prompt and tool schemas), to count toward the window. */
export function estimateFixedTokens(systemPrompt: string, tools: readonly ToolSchema[]): number {
  let tokens = estimateTextTokens(systemPrompt);
  for (const tool of tools)
    tokens +=
      MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(tool.name + tool.description + JSON.stringify(tool.parameters));
  return tokens;
}

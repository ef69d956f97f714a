import { collectReply } from "../providers/collect-reply.js";
import type { ChatMessage } from "../providers/messages.js";
import type { ModelClient } from "../providers/model-client.js";
import { findBoundaries, headEndOf } from "./boundaries.js";
import type { CompressionSettings } from "./compression-settings.js";
import { pruneToolOutputs } from "./prune-tool-outputs.js";
import {
  buildSummaryPrompt,
  cleanSummary,
  isSummaryMessage,
  parseSummaryMessage,
  summaryBudgetTokens,
  summaryMessageContent,
} from "./summary-prompt.js";
import { joinUserMessages } from "./todo-snapshot.js";
import { estimateMessagesTokens } from "./token-estimate.js";

/** Asks the auxiliary model (the main model by default) for the summary text. */
export type Summarize = (systemPrompt: string, userPrompt: string, signal: AbortSignal) => Promise<string>;

export interface CompressOptions {
  /** The model's context window in tokens. */
  readonly contextLength: number;
  readonly settings: CompressionSettings;
  readonly summarize: Summarize;
  /** `/compress <focus>`: the topic the summary keeps in full detail. */
  readonly focus?: string;
  /** `/compress`: compress whatever the size and even when `compression.enabled` is false. */
  readonly force?: boolean;
  readonly signal: AbortSignal;
  /** Tokens every request carries besides the history (system prompt, tool schemas); see estimateFixedTokens. */
  readonly fixedTokens?: number;
}

export interface CompressionResult {
  /** The new history when compressed; otherwise the history passed in, untouched. */
  readonly messages: readonly ChatMessage[];
  readonly compressed: boolean;
  /** Why nothing was compressed, in words fit to show the user. */
  readonly reason?: string;
  /** Estimated tokens of a request before and after (history plus fixedTokens). */
  readonly beforeTokens: number;
  readonly afterTokens: number;
  /** The summary body (without prefix and end marker). */
  readonly summary?: string;
  /** Old tool results whose content was replaced by the placeholder. */
  readonly prunedToolOutputs?: number;
}

/** Upstream's stub for a call whose result was compacted away, so the call is never left unanswered. */
export const MISSING_RESULT_STUB = "[Result from earlier conversation — see context summary above]";

export function compressionThresholdTokens(contextLength: number, settings: CompressionSettings): number {
  return Math.floor(contextLength * settings.threshold);
}

/** Whether automatic compression is due before the next model call. */
export function needsCompression(
  messages: readonly ChatMessage[],
  contextLength: number,
  settings: CompressionSettings,
  fixedTokens = 0,
): boolean {
  return (
    settings.enabled &&
    estimateMessagesTokens(messages) + fixedTokens > compressionThresholdTokens(contextLength, settings)
  );
}

/**
 * Compresses the history (upstream's context compressor): prunes old tool outputs, keeps the first exchange and a
 * recent tail verbatim, and replaces the middle by one user message holding a structured summary from `summarize`.
 * A summary from an earlier compression is updated, not summarised again. The result keeps the loop's alternation
 * rules and every tool call's result. Never throws: a failed or cancelled summary leaves the history untouched
 * (the caller decides whether to retry later), with the reason.
 */
export async function compressHistory(
  messages: readonly ChatMessage[],
  options: CompressOptions,
): Promise<CompressionResult> {
  const { settings, contextLength } = options;
  const fixed = options.fixedTokens ?? 0;
  const messageTokens = estimateMessagesTokens(messages);
  const beforeTokens = messageTokens + fixed;
  const unchanged = (reason: string): CompressionResult => ({
    messages,
    compressed: false,
    reason,
    beforeTokens,
    afterTokens: beforeTokens,
  });
  const threshold = compressionThresholdTokens(contextLength, settings);
  if (!options.force) {
    if (!settings.enabled) return unchanged("Automatic compression is off (compression.enabled: false).");
    if (beforeTokens <= threshold)
      return unchanged(
        `~${formatTokens(beforeTokens)} tokens is below the compression threshold (~${formatTokens(threshold)}).`,
      );
  }

  const work = splitMergedSummaries(messages);
  const headEnd = headEndOf(work);
  if (work.length <= headEnd + 4) return unchanged("Not enough conversation to compress yet.");
  let tailTokenBudget = Math.floor(threshold * settings.targetRatio);
  // On demand, a conversation far below the threshold would fit in the tail whole; aim at a fraction of it instead.
  if (options.force) tailTokenBudget = Math.min(tailTokenBudget, Math.floor(messageTokens * settings.targetRatio));
  const bounds = findBoundaries(work, { tailTokenBudget, protectLastN: settings.protectLastN });

  const { messages: pruned, pruned: prunedToolOutputs } = pruneToolOutputs(work, bounds.tailStart);
  const middle = pruned.slice(headEnd, bounds.tailStart);
  const carried = bounds.carriedUser === undefined ? undefined : pruned[bounds.carriedUser];
  const previousSummary = middle
    .map((m) => parseSummaryMessage(m)?.summary ?? "")
    .filter(Boolean)
    .join("\n\n");
  const turns = middle.filter((m) => !isSummaryMessage(m));
  if (!turns.some((m) => m !== carried))
    return unchanged("Nothing to compress: the whole conversation fits in the protected head and tail.");

  const prompt = buildSummaryPrompt({
    turns,
    previousSummary: previousSummary || undefined,
    focus: options.focus,
    budgetTokens: summaryBudgetTokens(turns, contextLength),
  });
  let summary: string;
  try {
    summary = cleanSummary(await options.summarize(prompt.systemPrompt, prompt.userPrompt, options.signal));
  } catch (error) {
    if (options.signal.aborted) return unchanged("Compression was cancelled.");
    return unchanged(
      `Compression failed: the summary model returned an error (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (options.signal.aborted) return unchanged("Compression was cancelled.");
  if (!summary) return unchanged("Compression failed: the summary model returned no text.");

  const summaryMessage: ChatMessage = {
    role: "user",
    content: summaryMessageContent(summary) + (carried ? `\n\n${carried.content}` : ""),
    ...(carried?.role === "user" && carried.images ? { images: carried.images } : {}),
  };
  const result = mergeConsecutiveUserMessages(
    sanitizeToolPairs([...pruned.slice(0, headEnd), summaryMessage, ...pruned.slice(bounds.tailStart)]),
  );
  const afterTokens = estimateMessagesTokens(result) + fixed;
  if (afterTokens >= beforeTokens)
    return unchanged("Compression would not make the conversation smaller, so it was kept as it was.");
  return { messages: result, compressed: true, beforeTokens, afterTokens, summary, prunedToolOutputs };
}

/** The message `/compress` shows, in upstream's words. */
export function formatCompressionReport(before: readonly ChatMessage[], result: CompressionResult): string {
  if (!result.compressed) return result.reason ?? "Nothing to compress.";
  return `Context compressed: ${before.length} -> ${result.messages.length} messages\n~${formatTokens(result.beforeTokens)} -> ~${formatTokens(result.afterTokens)} tokens`;
}

/** A `Summarize` that streams the model's answer as plain text: no tools offered, reasoning ignored. */
export function summarizeWith(client: ModelClient, model: string): Summarize {
  return async (systemPrompt, userPrompt, signal) =>
    (
      await collectReply(
        client,
        { model, systemPrompt, messages: [{ role: "user", content: userPrompt }], tools: [] },
        signal,
      )
    ).text;
}

/**
 * A summary message that had the next user message merged into it (the tail began with one) becomes the summary
 * and that user message again, so the user's words stay a turn of their own and the old summary can be updated.
 */
function splitMergedSummaries(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const parsed = parseSummaryMessage(message);
    if (!parsed?.rest) {
      out.push(message);
      continue;
    }
    const images = message.role === "user" ? message.images : undefined;
    out.push(
      { role: "user", content: summaryMessageContent(parsed.summary) },
      { role: "user", content: parsed.rest, ...(images ? { images } : {}) },
    );
  }
  return out;
}

/**
 * Every tool result must answer a call of the assistant message just before it, and every call needs a result
 * before the next user or assistant message, or providers reject the request. Results whose call was summarised
 * away are dropped; calls whose result is missing get upstream's stub. Calls at the very end are left open: their
 * results may be about to be added.
 */
export function sanitizeToolPairs(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: string[] = [];
  const closeGroup = () => {
    for (const id of open) out.push({ role: "tool", toolCallId: id, content: MISSING_RESULT_STUB });
    open = [];
  };
  for (const message of messages) {
    if (message.role === "tool") {
      const at = open.indexOf(message.toolCallId);
      if (at < 0) continue;
      open.splice(at, 1);
      out.push(message);
      continue;
    }
    closeGroup();
    out.push(message);
    if (message.role === "assistant") open = (message.toolCalls ?? []).map((call) => call.id);
  }
  return out;
}

/** Two user messages in a row break the alternation some providers insist on: join them (todo-snapshot.ts says how). */
function mergeConsecutiveUserMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (last?.role === "user" && message.role === "user") out[out.length - 1] = joinUserMessages(last, message);
    else out.push(message);
  }
  return out;
}

function formatTokens(tokens: number): string {
  return tokens.toLocaleString("en-US");
}

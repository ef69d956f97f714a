import type { CompressionSettings } from "../compress/compression-settings.js";
import {
  type CompressionResult,
  compressHistory,
  formatCompressionReport,
  needsCompression,
  summarizeWith,
} from "../compress/compressor.js";
import type { ChatMessage } from "../providers/messages.js";
import type { ModelClient } from "../providers/model-client.js";
import type { AgentEventSink } from "../tools/turn-events.js";

/** After a failed compression, wait this long before trying again automatically (upstream's cooldown). */
const FAILURE_COOLDOWN_MS = 600_000;

export interface CompactionContext {
  readonly settings: CompressionSettings;
  readonly contextLength: number;
  /** Tokens the system prompt and tool schemas take on every request (counted when first needed). */
  readonly fixedTokens: () => number;
  readonly model: () => string;
  readonly client: () => Promise<ModelClient>;
  /** Called after each compression that replaced the history (the conversation rebuilds its system prompt). */
  readonly onCompressed?: () => void;
}

/**
 * When the history nears `compression.threshold` of the model's window, it is compressed in place (old tool
 * outputs pruned, the middle summarised by the model, head and tail kept, tool calls never parted from their
 * results), and the user is told how much it saved. `/compress` runs the same on demand.
 */
export class HistoryCompaction {
  private cooldownUntil = 0;
  /** Set when the history was replaced, until the store has saved it. */
  replaced = false;

  constructor(private readonly context: CompactionContext) {}

  /** Compresses `history` in place when it is over the threshold. Returns whether it did. */
  async maybeCompress(history: ChatMessage[], signal: AbortSignal, emit: AgentEventSink): Promise<boolean> {
    const c = this.context;
    if (!c.settings.enabled || Date.now() < this.cooldownUntil) return false;
    if (!needsCompression(history, c.contextLength, c.settings, c.fixedTokens())) return false;
    const before = history.slice();
    const result = await this.run(history, signal, false);
    if (!result.compressed) {
      this.cooldownUntil = Date.now() + FAILURE_COOLDOWN_MS;
      return false;
    }
    emit({ type: "notice", title: "Context compressed", message: formatCompressionReport(before, result) });
    return true;
  }

  /** `/compress [focus]`: compresses now, whatever the threshold, and says what happened. */
  async compressNow(history: ChatMessage[], focus: string | undefined, signal: AbortSignal): Promise<string> {
    if (history.length === 0) return "Nothing to compress — conversation is empty.";
    const before = history.slice();
    const result = await this.run(history, signal, true, focus);
    return formatCompressionReport(before, result);
  }

  private async run(
    history: ChatMessage[],
    signal: AbortSignal,
    force: boolean,
    focus?: string,
  ): Promise<CompressionResult> {
    const c = this.context;
    const summarize = summarizeWith(await c.client(), c.model());
    const result = await compressHistory(history, {
      contextLength: c.contextLength,
      settings: c.settings,
      summarize,
      signal,
      force,
      focus,
      fixedTokens: c.fixedTokens(),
    });
    if (result.compressed) {
      history.splice(0, history.length, ...result.messages);
      this.replaced = true;
      c.onCompressed?.();
    }
    return result;
  }
}

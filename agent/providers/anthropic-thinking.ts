import { type ClaudeGeneration, claudeGeneration, type ReasoningEffort } from "../config/model-reasoning.js";
import type { RuntimeProvider } from "../config/runtime-provider.js";
import type { ChatMessage } from "./messages.js";
import type { WireEffort } from "./reasoning-params.js";

/**
 * Anthropic extended thinking, as upstream's anthropic_adapter asks for it, and which signed thinking blocks go back.
 *
 * Asking: Claude 4.6 and later think adaptively (`thinking: {type: "adaptive"}` with `output_config.effort`, and
 * `{type: "disabled"}` to switch it off, since they think by default); older Claude models, and any other model
 * behind an Anthropic-compatible endpoint, take a token budget per effort. Thinking forbids a temperature other than
 * the default, so none is sent while it is on, and max_tokens must leave room for the answer after the budget.
 */

/** Upstream's THINKING_BUDGET. "minimal" gets low's budget: upstream lets it fall through to 8,000, more than low. */
const THINKING_BUDGET: Readonly<Record<Exclude<ReasoningEffort, "none">, number>> = {
  minimal: 4000,
  low: 4000,
  medium: 8000,
  high: 16000,
  xhigh: 32000,
};
/** Room for the answer after the thinking budget (upstream: max_tokens ≥ budget + 4096). */
const ANSWER_HEADROOM = 4096;
/** max_tokens for adaptive thinking: it spends from the same allowance as the answer, which our default (8,192) starves. */
const ADAPTIVE_MAX_TOKENS = 32_000;

export interface AnthropicThinking {
  /** `thinking` and `output_config` for the request body (empty when nothing is asked). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly maxTokens: number;
  /** Thinking is on for this request: no temperature may be sent. */
  readonly thinking: boolean;
}

/**
 * The thinking parameters for one request. `maxTokens` is what the request would otherwise use. While the last
 * assistant message is a tool call made without (signed) thinking, thinking is not switched on: the API wants a tool
 * continuation to start with that turn's thinking block, so a level chosen mid-turn takes effect with the next turn.
 */
export function anthropicThinking(
  model: string,
  effort: WireEffort,
  maxTokens: number,
  messages: readonly ChatMessage[],
): AnthropicThinking {
  const off: AnthropicThinking = { params: {}, maxTokens, thinking: false };
  if (effort === undefined || effort === "default") return off;
  const claude = claudeGeneration(bareModel(model));
  const disabled: AnthropicThinking = claude?.adaptive
    ? { params: { thinking: { type: "disabled" } }, maxTokens, thinking: false }
    : off;
  if (effort === "none" || continuesUnsignedToolUse(messages)) return disabled;
  if (claude?.adaptive) {
    return {
      // On 4.7+ the thinking text is "omitted" unless asked for; "summarized" keeps thoughts streaming to the editor.
      params: {
        thinking: { type: "adaptive", display: "summarized" },
        output_config: { effort: adaptiveEffort(effort, claude) },
      },
      maxTokens: Math.min(Math.max(maxTokens, ADAPTIVE_MAX_TOKENS), claude.maxOutputTokens),
      thinking: true,
    };
  }
  const limit = claude?.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  const wanted = Math.min(Math.max(maxTokens, THINKING_BUDGET[effort] + ANSWER_HEADROOM), limit);
  const budget = Math.min(THINKING_BUDGET[effort], wanted - ANSWER_HEADROOM);
  return { params: { thinking: { type: "enabled", budget_tokens: budget } }, maxTokens: wanted, thinking: true };
}

/** Upstream's ADAPTIVE_EFFORT_MAP: "minimal" is low; "xhigh" exists from 4.7, and 4.6 takes "max" instead. */
function adaptiveEffort(effort: Exclude<ReasoningEffort, "none">, claude: ClaudeGeneration): string {
  if (effort === "minimal") return "low";
  if (effort === "xhigh" && !claude.xhighEffort) return "max";
  return effort;
}

function continuesUnsignedToolUse(messages: readonly ChatMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") return (m.toolCalls?.length ?? 0) > 0 && !m.signedThinking?.length;
  }
  return false;
}

/** Which assistant messages get their signed thinking back. */
export interface ThinkingReplay {
  /** Anthropic's own API (or a proxy of it): other endpoints cannot check Anthropic's signatures, so get none. */
  readonly native: boolean;
  /** Every turn's thinking, for models that keep earlier thinking in context; else only the latest turn's. */
  readonly allTurns: boolean;
}

/**
 * Upstream's `_manage_thinking_signatures`: signed thinking goes back to Anthropic itself (a provider named
 * `anthropic` whatever its base URL, which then is a proxy of it, or api.anthropic.com), on the latest assistant
 * message, or on all of them for Opus 4.5+ and Sonnet 4.6+. Third-party Anthropic-compatible endpoints get none.
 */
export function thinkingReplayFor(runtime: Pick<RuntimeProvider, "providerId" | "baseUrl" | "model">): ThinkingReplay {
  const native =
    runtime.providerId === "anthropic" || /^https?:\/\/([^/]*\.)?anthropic\.com(\/|$)/i.test(runtime.baseUrl);
  return { native, allTurns: native && (claudeGeneration(bareModel(runtime.model))?.keepsPriorThinking ?? false) };
}

function bareModel(model: string): string {
  return model.toLowerCase().split("/").pop()!.replace(/:.*$/, "");
}

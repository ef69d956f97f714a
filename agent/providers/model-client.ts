import type { ReasoningEffort } from "../config/model-reasoning.js";
import type { ChatMessage, SignedThinking, ToolSchema } from "./messages.js";

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

/** Why the model stopped, normalised across APIs. */
export type FinishReason = "stop" | "tool_calls" | "length" | "refusal";

/** One normalised stream, whichever API produced it. */
export type ModelStreamEvent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string }
  /** A finished Anthropic thinking block with its signature, to be sent back with the turn it belongs to. */
  | { readonly type: "signed_thinking"; readonly block: SignedThinking }
  /** A piece of a tool call: `index` identifies the call; id and name arrive once, arguments in pieces. */
  | {
      readonly type: "tool_call_delta";
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta?: string;
    }
  | { readonly type: "usage"; readonly usage: TokenUsage }
  | { readonly type: "finish"; readonly reason: FinishReason };

export interface ModelRequest {
  readonly model: string;
  readonly systemPrompt: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSchema[];
  /** Sampling temperature; absent leaves the endpoint's default. Auxiliary calls (the approval judge) set 0. */
  readonly temperature?: number;
  /** Cap on the reply's tokens; absent leaves the default (the endpoint's, or Anthropic's required one). */
  readonly maxOutputTokens?: number;
  /**
   * How hard to think. The loop passes the session's choice (`agent.reasoning_effort` or the Thinking option), or
   * "default" when none was made: the model's default, sent where upstream's agent sends it. createModelClient turns
   * this into what the model accepts (reasoning-policy.ts), so a provider puts exactly that on the wire. Absent (as
   * in auxiliary calls, like upstream's): no reasoning parameter at all.
   */
  readonly reasoningEffort?: ReasoningEffort | "default";
}

/** A connection to one model endpoint. `stream` throws ProviderError; aborting `signal` ends it at once. */
export interface ModelClient {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

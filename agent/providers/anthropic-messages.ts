import type { RuntimeProvider } from "../config/runtime-provider.js";
import { anthropicThinking, type ThinkingReplay, thinkingReplayFor } from "./anthropic-thinking.js";
import { applySystemAndThree, type CacheableBlock, type CacheableMessage, type CacheTtl } from "./cache-control.js";
import { ANTHROPIC_MAX_IMAGE_BASE64, describeImage, formatBytes, imageFitsApi } from "./image-parts.js";
import type { ChatMessage, SignedThinking, ToolSchema, UserMessage } from "./messages.js";
import type { FinishReason, ModelClient, ModelRequest, ModelStreamEvent, TokenUsage } from "./model-client.js";
import { ProviderError, toProviderError } from "./provider-error.js";
import { temperatureParam } from "./sampling-contract.js";

export interface AnthropicOptions {
  readonly requestTimeoutMs: number;
  /** The Messages API requires max_tokens; 8192 suits every current Claude model. */
  readonly maxTokens?: number;
  readonly cacheTtl?: CacheTtl;
}

export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

// Wire types kept local and minimal: the SDK is imported lazily, only when a session first talks to a model.
export type AnthropicBlock =
  | { type: "text"; text: string; cache_control?: CacheableBlock["cache_control"] }
  | {
      type: "tool_use";
      id: string;
      name: string;
      input: Record<string, unknown>;
      cache_control?: CacheableBlock["cache_control"];
    }
  | { type: "tool_result"; tool_use_id: string; content: string; cache_control?: CacheableBlock["cache_control"] }
  | {
      type: "image";
      source: { type: "base64"; media_type: string; data: string };
      cache_control?: CacheableBlock["cache_control"];
    }
  | (SignedThinking & { cache_control?: never });
export type AnthropicMessage = CacheableMessage<AnthropicBlock>;

interface WireEvent {
  type: string;
  index?: number;
  message?: { usage?: WireUsage };
  content_block?: {
    type: string;
    id?: string;
    name?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    data?: string;
  };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: WireUsage;
}
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** The Anthropic Messages API (api.anthropic.com and Anthropic-compatible endpoints). */
export async function createAnthropicMessagesClient(
  runtime: RuntimeProvider,
  options: AnthropicOptions,
): Promise<ModelClient> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const sdk = new Anthropic({
    // An explicit key (even a placeholder) keeps the SDK from reading ANTHROPIC_* variables or credential files on
    // its own: which key is used is decided by our provider resolution, which can then name it in errors.
    apiKey: runtime.apiKey ?? "no-key-required",
    baseURL: anthropicBaseUrl(runtime.baseUrl),
    // Retries, backoff and fallback live in our own layer, where they can see every provider.
    maxRetries: 0,
    timeout: options.requestTimeoutMs,
    openTelemetry: false,
  });

  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      const cached = applySystemAndThree(
        request.systemPrompt ? [{ type: "text" as const, text: request.systemPrompt }] : [],
        toAnthropicMessages(request.messages, thinkingReplayFor(runtime)),
        options.cacheTtl,
      );
      const thinking = anthropicThinking(
        request.model,
        request.reasoningEffort,
        request.maxOutputTokens ?? options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
        request.messages,
      );
      const state: StreamState = {
        toolIndexByBlock: new Map(),
        thinkingByBlock: new Map(),
        usage: emptyUsage(),
        finished: false,
      };
      try {
        const stream = await sdk.messages.create(
          {
            model: anthropicModelId(request.model),
            max_tokens: thinking.maxTokens,
            // With thinking on, the API refuses any temperature but the default; Opus 4.7 on refuses one always.
            // Extended thinking refuses any temperature but the default.
            ...temperatureParam(
              { ...runtime, model: request.model },
              thinking.thinking ? undefined : request.temperature,
            ),
            ...(thinking.params as object),
            ...(cached.system.length > 0 ? { system: cached.system as never } : {}),
            messages: cached.messages as never,
            ...(request.tools.length > 0 ? { tools: request.tools.map(toAnthropicTool) } : {}),
            stream: true,
          },
          { signal },
        );
        for await (const event of stream as AsyncIterable<WireEvent>) yield* fromEvent(event, state);
      } catch (error) {
        throw anthropicError(error, signal);
      }
      if (signal.aborted) throw new ProviderError("aborted", "The request was cancelled.");
      // A stream that ends without message_delta's stop reason was cut off (proxy timeout, dropped connection).
      if (!state.finished) throw new ProviderError("network", "the reply was cut off before the model finished");
    },
  };
}

/**
 * The SDK appends `/v1/messages` itself, while OpenAI-style base URLs (and many users) end in `/v1`: accept both.
 */
export function anthropicBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** "anthropic/claude-sonnet-4" (OpenRouter style, common in shared configs) is "claude-sonnet-4" to Anthropic. */
function anthropicModelId(model: string): string {
  return model.replace(/^anthropic\//, "");
}

function toAnthropicTool(tool: ToolSchema) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters as { type: "object" } };
}

/**
 * OpenAI-format history → Anthropic messages: assistant tool calls become tool_use blocks, tool results become
 * tool_result blocks in a user message. Consecutive user-side messages (several tool results, then perhaps a note
 * to the model) are merged into one, because the API wants user and assistant to alternate and tool results first.
 * Signed thinking goes back first in its own turn, as `replay` says (anthropic-thinking.ts), byte for byte.
 */
export function toAnthropicMessages(
  messages: readonly ChatMessage[],
  replay: ThinkingReplay = { native: false, allTurns: false },
): AnthropicMessage[] {
  const out: Array<{ role: "user" | "assistant"; content: AnthropicBlock[] }> = [];
  const push = (role: "user" | "assistant", blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    // Thinking is signed for its own turn: merged into another, it would no longer verify (upstream drops it too).
    if (last && last.role === role)
      last.content.push(...blocks.filter((b) => b.type !== "thinking" && b.type !== "redacted_thinking"));
    else out.push({ role, content: blocks });
  };
  const lastAssistant = messages.findLastIndex((m) => m.role === "assistant");
  messages.forEach((m, i) => {
    if (m.role === "user") push("user", userBlocks(m));
    else if (m.role === "tool") push("user", [{ type: "tool_result", tool_use_id: m.toolCallId, content: m.content }]);
    else {
      // An empty text block is rejected by the API; an empty assistant turn is simply left out (the merge above
      // keeps the alternation), its thinking with it.
      const blocks: AnthropicBlock[] = m.content ? [{ type: "text", text: m.content }] : [];
      for (const call of m.toolCalls ?? [])
        blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parseInput(call.arguments) });
      if (blocks.length > 0 && replay.native && (replay.allTurns || i === lastAssistant))
        blocks.unshift(...(m.signedThinking ?? []).map((b) => ({ ...b })));
      push("assistant", blocks);
    }
  });
  return out;
}

/**
 * Images first, then the text: Anthropic's guidance is that Claude does best with images placed before the question.
 * An image over the API's base64 limit (attached while another model was in use, or from a file) would be a 400 on
 * every later turn of the session, so it goes as a note instead.
 */
function userBlocks(m: UserMessage): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  const notes: string[] = [];
  for (const image of m.images ?? []) {
    if (imageFitsApi(image, "anthropic_messages"))
      blocks.push({ type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } });
    else
      notes.push(
        `[The user attached an image (${describeImage(image)}) that is over this API's ${formatBytes(ANTHROPIC_MAX_IMAGE_BASE64)} limit once encoded, so it was not sent. Do not guess what it shows; ask for a smaller or compressed copy.]`,
      );
  }
  const text = [m.content, ...notes].filter(Boolean).join("\n\n");
  if (text) blocks.push({ type: "text", text });
  return blocks;
}

/** tool_use.input must be an object; arguments the model garbled were already answered with an error result. */
function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || "{}");
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

interface StreamState {
  /** Content-block index → tool-call index, so tool calls are numbered 0, 1, ... whatever blocks precede them. */
  readonly toolIndexByBlock: Map<number, number>;
  /** Thinking blocks being streamed: their text and signature, handed over whole when the block ends. */
  readonly thinkingByBlock: Map<number, { thinking: string; signature: string }>;
  usage: Required<WireUsage>;
  finished: boolean;
}

function* fromEvent(event: WireEvent, state: StreamState): Generator<ModelStreamEvent> {
  switch (event.type) {
    case "message_start":
      mergeUsage(state, event.message?.usage);
      return;
    case "content_block_start": {
      const block = event.content_block;
      if (!block) return;
      if (block.type === "tool_use") {
        const index = state.toolIndexByBlock.size;
        state.toolIndexByBlock.set(event.index ?? index, index);
        yield { type: "tool_call_delta", index, id: block.id, name: block.name };
      } else if (block.type === "text" && block.text) yield { type: "text", text: block.text };
      else if (block.type === "thinking") {
        state.thinkingByBlock.set(event.index ?? -1, {
          thinking: block.thinking ?? "",
          signature: block.signature ?? "",
        });
        if (block.thinking) yield { type: "reasoning", text: block.thinking };
      } else if (block.type === "redacted_thinking" && block.data)
        yield { type: "signed_thinking", block: { type: "redacted_thinking", data: block.data } };
      return;
    }
    case "content_block_delta": {
      const delta = event.delta;
      if (delta?.type === "text_delta" && delta.text) yield { type: "text", text: delta.text };
      else if (delta?.type === "thinking_delta" && delta.thinking) {
        const pending = state.thinkingByBlock.get(event.index ?? -1);
        if (pending) pending.thinking += delta.thinking;
        yield { type: "reasoning", text: delta.thinking };
      } else if (delta?.type === "signature_delta" && delta.signature) {
        const pending = state.thinkingByBlock.get(event.index ?? -1);
        if (pending) pending.signature += delta.signature;
      } else if (delta?.type === "input_json_delta" && delta.partial_json) {
        const index = state.toolIndexByBlock.get(event.index ?? -1);
        if (index !== undefined) yield { type: "tool_call_delta", index, argumentsDelta: delta.partial_json };
      }
      return;
    }
    case "content_block_stop": {
      const done = state.thinkingByBlock.get(event.index ?? -1);
      state.thinkingByBlock.delete(event.index ?? -1);
      // Unsigned thinking (some compatible endpoints) cannot be sent back to Anthropic; its text is kept as reasoning.
      if (done?.signature)
        yield {
          type: "signed_thinking",
          block: { type: "thinking", thinking: done.thinking, signature: done.signature },
        };
      return;
    }
    case "message_delta": {
      mergeUsage(state, event.usage);
      const reason = event.delta?.stop_reason;
      if (!reason) return;
      state.finished = true;
      yield { type: "usage", usage: toUsage(state.usage) };
      yield { type: "finish", reason: normaliseStop(reason) };
      return;
    }
  }
}

function emptyUsage(): Required<WireUsage> {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** message_start carries the input side, message_delta the (cumulative) output side; later non-null values win. */
function mergeUsage(state: StreamState, usage: WireUsage | undefined): void {
  if (!usage) return;
  const next = { ...state.usage };
  for (const key of Object.keys(next) as Array<keyof WireUsage>) {
    const value = usage[key];
    if (typeof value === "number") next[key] = value;
  }
  state.usage = next;
}

/**
 * Anthropic's input_tokens leaves out what was read from or written to the cache; our usage counts every prompt
 * token as input (as OpenAI's prompt_tokens does), with the cached part reported alongside.
 */
function toUsage(u: Required<WireUsage>): TokenUsage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  return {
    inputTokens: (u.input_tokens ?? 0) + cacheRead + (u.cache_creation_input_tokens ?? 0),
    outputTokens: u.output_tokens ?? 0,
    cachedInputTokens: cacheRead,
  };
}

function normaliseStop(reason: string): FinishReason {
  switch (reason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "refusal";
    default:
      return "stop";
  }
}

/** An `overloaded_error` sent inside the stream has no HTTP status; it is a server failure all the same. */
function anthropicError(error: unknown, signal: AbortSignal): ProviderError {
  const failure = toProviderError(error, signal);
  const type = (error as { error?: { error?: { type?: unknown } } } | undefined)?.error?.error?.type;
  if (failure.status === undefined && (type === "overloaded_error" || type === "api_error")) {
    return new ProviderError("server", failure.message, 529, failure.retryAfterMs);
  }
  if (failure.status === undefined && type === "rate_limit_error")
    return new ProviderError("rate_limit", failure.message, 429, failure.retryAfterMs);
  return failure;
}

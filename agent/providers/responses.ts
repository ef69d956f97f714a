import type { RuntimeProvider } from "../config/runtime-provider.js";
import { imageDataUrl } from "./image-parts.js";
import type { ChatMessage, ToolSchema, UserMessage } from "./messages.js";
import type { FinishReason, ModelClient, ModelRequest, ModelStreamEvent } from "./model-client.js";
import { openOpenAiSdk } from "./openai-sdk.js";
import { ProviderError, type ProviderFailureKind, toProviderError } from "./provider-error.js";
import { responsesReasoningParams } from "./reasoning-params.js";
import { temperatureParam } from "./sampling-contract.js";

// Wire types kept local and minimal: the SDK is imported lazily, only when a session first talks to a model.
export type ResponsesInputItem =
  | { role: "user" | "assistant"; content: string }
  | { role: "user"; content: ResponsesUserPart[] }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string };

export type ResponsesUserPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" };

interface WireEvent {
  type: string;
  delta?: string;
  output_index?: number;
  item?: { type?: string; id?: string; call_id?: string; name?: string };
  response?: WireResponse;
  code?: string | null;
  message?: string;
}
interface WireResponse {
  status?: string | null;
  incomplete_details?: { reason?: string | null } | null;
  error?: { code?: string | null; message?: string } | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number } | null;
    output_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
}

/** The OpenAI Responses API (`codex_responses`): OpenAI's own endpoint for its reasoning and Codex models. */
export async function createResponsesClient(runtime: RuntimeProvider, requestTimeoutMs: number): Promise<ModelClient> {
  const sdk = await openOpenAiSdk(runtime, requestTimeoutMs);

  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      const state: StreamState = { sawToolCall: false, sawRefusal: false, finished: false };
      try {
        const stream = await sdk.responses.create(
          {
            model: request.model,
            ...(request.systemPrompt ? { instructions: request.systemPrompt } : {}),
            input: toResponsesInput(request.messages) as never,
            // The engine keeps the history itself and resends it; nothing needs to be stored server-side.
            store: false,
            stream: true,
            // Reasoning models refuse any temperature but their default (sampling-contract.ts).
            ...temperatureParam({ ...runtime, model: request.model }, request.temperature),
            ...(request.maxOutputTokens === undefined ? {} : { max_output_tokens: request.maxOutputTokens }),
            ...responsesReasoningParams(request.reasoningEffort),
            ...(request.tools.length > 0 ? { tools: request.tools.map(toResponsesTool) } : {}),
          },
          { signal },
        );
        for await (const event of stream as AsyncIterable<WireEvent>) yield* fromEvent(event, state);
      } catch (error) {
        throw toProviderError(error, signal);
      }
      if (signal.aborted) throw new ProviderError("aborted", "The request was cancelled.");
      // A stream that ends without response.completed was cut off (proxy timeout, dropped connection).
      if (!state.finished) throw new ProviderError("network", "the reply was cut off before the model finished");
    },
  };
}

function toResponsesTool(tool: ToolSchema) {
  // strict: false, because strict mode demands schemas (every property required, no extras) our tools do not follow.
  return {
    type: "function" as const,
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters as Record<string, unknown>,
    strict: false,
  };
}

/**
 * OpenAI-format history → Responses input items: messages stay messages; each assistant tool call becomes a
 * function_call item and each tool result a function_call_output item, tied together by call_id.
 */
export function toResponsesInput(messages: readonly ChatMessage[]): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const m of messages) {
    if (m.role === "user") items.push(userInput(m));
    else if (m.role === "tool") items.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content });
    else {
      if (m.content) items.push({ role: "assistant", content: m.content });
      for (const call of m.toolCalls ?? [])
        items.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
    }
  }
  return items;
}

/** Text stays a plain string; with images, an input_text part (if any) then one input_image data URL per image. */
function userInput(m: UserMessage): ResponsesInputItem {
  if (!m.images?.length) return { role: "user", content: m.content };
  const parts: ResponsesUserPart[] = m.content ? [{ type: "input_text", text: m.content }] : [];
  for (const image of m.images) parts.push({ type: "input_image", image_url: imageDataUrl(image), detail: "auto" });
  return { role: "user", content: parts };
}

interface StreamState {
  sawToolCall: boolean;
  sawRefusal: boolean;
  finished: boolean;
}

function* fromEvent(event: WireEvent, state: StreamState): Generator<ModelStreamEvent> {
  switch (event.type) {
    case "response.output_text.delta":
      if (event.delta) yield { type: "text", text: event.delta };
      return;
    case "response.refusal.delta":
      // Shown like text (as chat-completions does) so the user learns why; the turn ends as a refusal.
      state.sawRefusal = true;
      if (event.delta) yield { type: "text", text: event.delta };
      return;
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_text.delta":
      if (event.delta) yield { type: "reasoning", text: event.delta };
      return;
    case "response.output_item.added":
      if (event.item?.type === "function_call") {
        state.sawToolCall = true;
        // call_id (not the item id) is what function_call_output refers back to.
        yield {
          type: "tool_call_delta",
          index: event.output_index ?? 0,
          id: event.item.call_id ?? event.item.id,
          name: event.item.name,
        };
      }
      return;
    case "response.function_call_arguments.delta":
      if (event.delta) yield { type: "tool_call_delta", index: event.output_index ?? 0, argumentsDelta: event.delta };
      return;
    case "response.completed":
    case "response.incomplete":
      state.finished = true;
      yield* finishOf(event.response ?? {}, state);
      return;
    case "response.failed":
      throw failureOf(event.response?.error?.code, event.response?.error?.message ?? "the response failed");
    case "error":
      throw failureOf(event.code, event.message ?? "the provider reported an error");
  }
}

function* finishOf(response: WireResponse, state: StreamState): Generator<ModelStreamEvent> {
  const usage = response.usage;
  if (usage) {
    yield {
      type: "usage",
      usage: {
        inputTokens: usage.input_tokens ?? 0,
        outputTokens: usage.output_tokens ?? 0,
        cachedInputTokens: usage.input_tokens_details?.cached_tokens,
        reasoningTokens: usage.output_tokens_details?.reasoning_tokens,
      },
    };
  }
  yield { type: "finish", reason: finishReason(response, state) };
}

function finishReason(response: WireResponse, state: StreamState): FinishReason {
  if (response.status === "incomplete") {
    const reason = response.incomplete_details?.reason;
    return reason === "content_filter" ? "refusal" : "length";
  }
  if (state.sawToolCall) return "tool_calls";
  return state.sawRefusal ? "refusal" : "stop";
}

/** A failure reported inside an HTTP 200 stream: classified by its code so retry and fallback can judge it. */
function failureOf(code: string | null | undefined, message: string): ProviderError {
  const kind: ProviderFailureKind =
    code === "rate_limit_exceeded"
      ? "rate_limit"
      : code === "server_error" || code === "server_is_overloaded" || code === "slow_down"
        ? "server"
        : "bad_request";
  // No HTTP status exists (the stream itself was a 200); the nominal one keeps user-facing wording sensible.
  const status = kind === "rate_limit" ? 429 : kind === "server" ? 500 : 400;
  return new ProviderError(kind, message.slice(0, 500), status);
}

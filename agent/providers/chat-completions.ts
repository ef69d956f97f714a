import type { RuntimeProvider } from "../config/runtime-provider.js";
import { imageDataUrl } from "./image-parts.js";
import type { ChatMessage, UserMessage } from "./messages.js";
import type { FinishReason, ModelClient, ModelRequest, ModelStreamEvent } from "./model-client.js";
import { openOpenAiSdk } from "./openai-sdk.js";
import { ProviderError, toProviderError } from "./provider-error.js";
import { chatReasoningParams } from "./reasoning-params.js";
import { samplingContractOf, temperatureParam } from "./sampling-contract.js";

// Wire types kept local and minimal: the SDK is imported lazily, only when a session first talks to a model.
type WireMessage =
  | { role: "system" | "user"; content: string }
  | { role: "user"; content: WireUserPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: WireToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };
type WireUserPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
interface WireChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      refusal?: string | null;
      tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
}

/** The OpenAI chat-completions API (OpenRouter, OpenAI, DeepSeek, Gemini, xAI, Ollama, vLLM, LM Studio...). */
export async function createChatCompletionsClient(
  runtime: RuntimeProvider,
  requestTimeoutMs: number,
): Promise<ModelClient> {
  const sdk = await openOpenAiSdk(runtime, requestTimeoutMs);

  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      let finished = false;
      try {
        const stream = await sdk.chat.completions.create(
          {
            model: request.model,
            messages: toWire(request.systemPrompt, request.messages) as never,
            stream: true,
            stream_options: { include_usage: true },
            ...samplingParams(runtime, request),
            ...chatReasoningParams(runtime, request.reasoningEffort),
            ...(request.tools.length > 0
              ? {
                  tools: request.tools.map((t) => ({
                    type: "function" as const,
                    function: {
                      name: t.name,
                      description: t.description,
                      parameters: t.parameters as Record<string, unknown>,
                    },
                  })),
                }
              : {}),
          },
          { signal },
        );
        for await (const chunk of stream as AsyncIterable<WireChunk>) {
          for (const event of fromChunk(chunk)) {
            if (event.type === "finish") finished = true;
            yield event;
          }
        }
      } catch (error) {
        throw toProviderError(error, signal);
      }
      if (signal.aborted) throw new ProviderError("aborted", "The request was cancelled.");
      // A stream that ends without a finish reason was cut off (proxy timeout, dropped connection).
      if (!finished) throw new ProviderError("network", "the reply was cut off before the model finished");
    },
  };
}

/** Temperature and the output cap under the names this model takes (sampling-contract.ts): no 400 over either. */
function samplingParams(runtime: RuntimeProvider, request: ModelRequest): Record<string, number> {
  const contract = samplingContractOf({ ...runtime, model: request.model });
  return {
    ...temperatureParam({ ...runtime, model: request.model }, request.temperature),
    ...(request.maxOutputTokens === undefined ? {} : { [contract.maxTokensField]: request.maxOutputTokens }),
  };
}

function toWire(systemPrompt: string, messages: readonly ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  if (systemPrompt) wire.push({ role: "system", content: systemPrompt });
  for (const m of messages) {
    if (m.role === "user") wire.push(userToWire(m));
    else if (m.role === "tool") wire.push({ role: "tool", tool_call_id: m.toolCallId, content: m.content });
    else {
      const toolCalls = m.toolCalls?.map((c) => ({
        id: c.id,
        type: "function" as const,
        function: { name: c.name, arguments: c.arguments },
      }));
      wire.push({
        role: "assistant",
        content: m.content || null,
        ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
      });
    }
  }
  return wire;
}

/** Text stays a plain string; with images, the text part (if any) then one image_url data URL part per image. */
function userToWire(m: UserMessage): WireMessage {
  if (!m.images?.length) return { role: "user", content: m.content };
  const parts: WireUserPart[] = m.content ? [{ type: "text", text: m.content }] : [];
  for (const image of m.images) parts.push({ type: "image_url", image_url: { url: imageDataUrl(image) } });
  return { role: "user", content: parts };
}

function* fromChunk(chunk: WireChunk): Generator<ModelStreamEvent> {
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) yield { type: "reasoning", text: reasoning };
      if (delta.content) yield { type: "text", text: delta.content };
      if (delta.refusal) yield { type: "text", text: delta.refusal };
      for (const call of delta.tool_calls ?? []) {
        yield {
          type: "tool_call_delta",
          index: call.index,
          id: call.id,
          name: call.function?.name,
          argumentsDelta: call.function?.arguments,
        };
      }
    }
    if (choice.finish_reason) yield { type: "finish", reason: normaliseFinish(choice.finish_reason) };
  }
  const usage = chunk.usage;
  if (usage) {
    yield {
      type: "usage",
      usage: {
        inputTokens: usage.prompt_tokens ?? 0,
        outputTokens: usage.completion_tokens ?? 0,
        cachedInputTokens: usage.prompt_tokens_details?.cached_tokens,
        reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
      },
    };
  }
}

function normaliseFinish(reason: string): FinishReason {
  switch (reason) {
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "content_filter":
    case "refusal":
      return "refusal";
    default:
      return "stop";
  }
}

import type { SignedThinking, ToolCallRecord } from "../providers/messages.js";
import type { FinishReason, ModelClient, ModelRequest } from "../providers/model-client.js";
import type { AgentEventSink } from "../tools/turn-events.js";

/** What one model call produced once its stream has ended. */
export interface ModelStep {
  readonly text: string;
  readonly reasoning: string;
  /** Anthropic's signed thinking blocks, in order (empty for other APIs). */
  readonly signedThinking: readonly SignedThinking[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly finish: FinishReason;
}

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Streams one model call: text and reasoning deltas go out as events at once; tool calls are assembled from their
 * pieces (id and name once, arguments in fragments, several calls interleaved by index). Throws what the client
 * throws (a ProviderError); the caller decides what survives.
 */
export async function runModelStep(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  emit: AgentEventSink,
  callIdPrefix: string,
): Promise<ModelStep> {
  let text = "";
  let reasoning = "";
  const signedThinking: SignedThinking[] = [];
  let finish: FinishReason = "stop";
  const calls = new Map<number, PendingCall>();
  for await (const event of client.stream(request, signal)) {
    switch (event.type) {
      case "text":
        text += event.text;
        emit({ type: "text_delta", text: event.text });
        break;
      case "reasoning":
        reasoning += event.text;
        emit({ type: "thought_delta", text: event.text });
        break;
      case "signed_thinking":
        signedThinking.push(event.block);
        break;
      case "tool_call_delta": {
        const call = calls.get(event.index) ?? { id: "", name: "", arguments: "" };
        if (event.id) call.id = event.id;
        if (event.name) call.name += event.name;
        if (event.argumentsDelta) call.arguments += event.argumentsDelta;
        calls.set(event.index, call);
        break;
      }
      case "usage":
        emit({ type: "usage", usage: event.usage });
        break;
      case "finish":
        finish = event.reason;
        break;
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ id: call.id || `${callIdPrefix}${index}`, name: call.name, arguments: call.arguments }));
  return { text, reasoning, signedThinking, toolCalls, finish: toolCalls.length > 0 ? "tool_calls" : finish };
}

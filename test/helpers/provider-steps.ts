/**
 * Model steps against the scripted LLM, shared by the provider tests: a runtime in a given wire format, a request
 * with one tool, one step with its events, the ProviderError a step ends with, and fast retries.
 */
import { strict as assert } from "node:assert";
import type { ApiMode } from "../../agent/config/provider-catalog.js";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { runModelStep } from "../../agent/loop/model-step.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import type { ModelClient, ModelRequest } from "../../agent/providers/model-client.js";
import { ProviderError } from "../../agent/providers/provider-error.js";
import { abortableSleep, type RetryOptions } from "../../agent/providers/retrying-client.js";
import type { AgentEvent } from "../../agent/tools/turn-events.js";
import type { ScriptedLlm } from "../fixtures/scripted-llm.js";

export const SECRET = "sk-test-secret-4242";

export function runtimeFor(llm: ScriptedLlm, apiMode: ApiMode, extra: Partial<RuntimeProvider> = {}): RuntimeProvider {
  return {
    providerId: "custom",
    providerLabel: `Scripted ${apiMode}`,
    model: "scripted-model",
    baseUrl: llm.baseUrl,
    apiMode,
    apiKey: SECRET,
    keySource: "CUSTOM_API_KEY",
    keyVariables: ["CUSTOM_API_KEY"],
    keyOptional: true,
    contextLength: undefined,
    ...extra,
  };
}

export const TOOL = {
  name: "read_file",
  description: "Reads a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};

export function request(messages: ChatMessage[] = [{ role: "user", content: "hi" }], tools = [TOOL]): ModelRequest {
  return { model: "scripted-model", systemPrompt: "You are a test.", messages, tools };
}

export async function step(client: ModelClient, req = request(), signal = new AbortController().signal) {
  const events: AgentEvent[] = [];
  const result = await runModelStep(client, req, signal, (e) => events.push(e), "gen_");
  return { ...result, usage: events.filter((e) => e.type === "usage").map((e) => (e as { usage: unknown }).usage) };
}

export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Fast retries whose requested delays are recorded (and really waited, so Retry-After is honoured). */
export function fastRetry(asked: number[] = []): RetryOptions {
  return { baseDelayMs: 5, maxDelayMs: 20, sleep: (ms, signal) => (asked.push(ms), abortableSleep(ms, signal)) };
}

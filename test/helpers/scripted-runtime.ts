import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import type { ScriptedLlm } from "../fixtures/scripted-llm.js";

/** A chat-completions runtime pointed at the scripted LLM, with `overrides` (a model name, a context length). */
export function scriptedRuntime(llm: ScriptedLlm, overrides: Partial<RuntimeProvider> = {}): RuntimeProvider {
  return {
    providerId: "custom",
    providerLabel: "Scripted",
    model: "scripted-model",
    baseUrl: llm.baseUrl,
    apiMode: "chat_completions",
    apiKey: undefined,
    keySource: undefined,
    keyVariables: [],
    keyOptional: true,
    contextLength: undefined,
    ...overrides,
  };
}

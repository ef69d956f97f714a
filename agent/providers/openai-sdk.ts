import type OpenAI from "openai";
import type { RuntimeProvider } from "../config/runtime-provider.js";

/** The `openai` SDK client both OpenAI wire formats use, loaded only when a session first needs it. */
export async function openOpenAiSdk(runtime: RuntimeProvider, requestTimeoutMs: number): Promise<OpenAI> {
  const { default: OpenAIClient } = await import("openai");
  return new OpenAIClient({
    // Local servers need no key, but the SDK insists on one; they ignore the header.
    apiKey: runtime.apiKey ?? "no-key-required",
    baseURL: runtime.baseUrl,
    // Retries, backoff and fallback live in our own layer, where they can see every provider.
    maxRetries: 0,
    timeout: requestTimeoutMs,
  });
}

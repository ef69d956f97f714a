import type { RuntimeProvider } from "../config/runtime-provider.js";
import type { ModelClient } from "./model-client.js";
import { ProviderError } from "./provider-error.js";

const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** Opens a client for the runtime's API mode, loading that mode's SDK only now. */
export async function createModelClient(runtime: RuntimeProvider): Promise<ModelClient> {
  // Node loads its fetch implementation (undici, ~20 ms) on first touch; every SDK here uses it, so do it now
  // rather than inside the first request.
  void new Headers();
  switch (runtime.apiMode) {
    case "chat_completions": {
      const { createChatCompletionsClient } = await import("./chat-completions.js");
      return createChatCompletionsClient(runtime, DEFAULT_REQUEST_TIMEOUT_MS);
    }
    case "codex_responses":
    case "anthropic_messages":
      throw new ProviderError(
        "unsupported",
        `api_mode '${runtime.apiMode}' is not available in this version of hermes-acp yet; use a chat_completions endpoint (for Anthropic models, provider openrouter works).`,
      );
  }
}

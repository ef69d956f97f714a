import type { RuntimeProvider } from "../config/runtime-provider.js";
import { hasImages, runtimeSeesImages, withImagesAsNotes } from "./image-parts.js";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "./model-client.js";
import { ProviderError } from "./provider-error.js";
import { withReasoningPolicy } from "./reasoning-policy.js";
import { type FallbackOptions, type RetryOptions, withFallbacks, withRetries } from "./retrying-client.js";

const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/**
 * Opens one provider's client for the runtime's API mode, loading that mode's SDK only now. No retries: a failure
 * is reported as it happened (retries and fallbacks are `createModelClientWithFallbacks`).
 */
export async function createModelClient(runtime: RuntimeProvider): Promise<ModelClient> {
  // Per runtime, like the images: a fallback to another model gets the reasoning parameters that model takes.
  const client = withReasoningPolicy(await openApiClient(runtime), runtime);
  return runtimeSeesImages(runtime) ? client : textOnly(client);
}

/**
 * A model without vision gets a note in place of each image (upstream's text routing, without its auxiliary vision
 * model). Done per client, so a fallback to a text-only model, or back to a vision model, is handled turn by turn.
 */
function textOnly(client: ModelClient): ModelClient {
  return {
    stream: (request, signal) =>
      client.stream(
        hasImages(request.messages) ? { ...request, messages: withImagesAsNotes(request.messages) } : request,
        signal,
      ),
  };
}

async function openApiClient(runtime: RuntimeProvider): Promise<ModelClient> {
  return (await loadApiClientFactory(runtime))(runtime);
}

/**
 * Loads what the first request of `runtime` would load (its wire format's module, its SDK, Node's fetch), without
 * opening a client: for `initialize`, so the user's first prompt does not wait for module compilation.
 */
export async function preloadModelClient(runtime: RuntimeProvider): Promise<void> {
  await loadApiClientFactory(runtime);
}

type ApiClientFactory = (runtime: RuntimeProvider) => Promise<ModelClient>;

/** The runtime's wire format, loaded with its SDK: what opens a client of it. */
async function loadApiClientFactory(runtime: RuntimeProvider): Promise<ApiClientFactory> {
  // Node loads its fetch implementation (undici, ~20 ms) on first touch; every SDK here uses it, so do it now
  // rather than inside the first request.
  void new Headers();
  switch (runtime.apiMode) {
    case "chat_completions": {
      const [{ createChatCompletionsClient }] = await Promise.all([import("./chat-completions.js"), import("openai")]);
      return (r) => createChatCompletionsClient(r, DEFAULT_REQUEST_TIMEOUT_MS);
    }
    case "codex_responses": {
      const [{ createResponsesClient }] = await Promise.all([import("./responses.js"), import("openai")]);
      return (r) => createResponsesClient(r, DEFAULT_REQUEST_TIMEOUT_MS);
    }
    case "anthropic_messages": {
      const [{ createAnthropicMessagesClient }] = await Promise.all([
        import("./anthropic-messages.js"),
        import("@anthropic-ai/sdk"),
      ]);
      return (r) => createAnthropicMessagesClient(r, { requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS });
    }
  }
}

/**
 * The client a session talks through: the primary provider with retries (backoff, Retry-After), then each fallback
 * in order, each with its own retries, each failing over only while nothing has been shown to the user. Every
 * provider's SDK loads on its first use, so fallbacks that are never needed cost nothing.
 */
export function createModelClientWithFallbacks(
  primary: RuntimeProvider,
  fallbacks: readonly RuntimeProvider[],
  retry: RetryOptions = {},
  options: FallbackOptions = {},
): ModelClient {
  const target = (runtime: RuntimeProvider) => ({ runtime, client: withRetries(lazyClient(runtime), retry) });
  return withFallbacks(target(primary), fallbacks.map(target), options);
}

/** Opens the provider on the first request; a failed open (SDK load error) is retried on the next request. */
function lazyClient(runtime: RuntimeProvider): ModelClient {
  let opening: Promise<ModelClient> | undefined;
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      opening ??= createModelClient(runtime);
      let client: ModelClient;
      try {
        client = await opening;
      } catch (error) {
        opening = undefined;
        // Not a network failure, whatever it says: retrying cannot help, a fallback can.
        throw error instanceof ProviderError
          ? error
          : new ProviderError(
              "unsupported",
              `Could not open the ${runtime.apiMode} client for ${runtime.providerLabel}: ${(error as Error).message}`,
            );
      }
      yield* client.stream(request, signal);
    },
  };
}

import { resolveChildRuntime } from "../../config/child-runtime.js";
import type { HermesConfig } from "../../config/load-config.js";
import type { RuntimeProvider } from "../../config/runtime-provider.js";
import { readVisionSettings, type VisionSettings } from "../../config/vision-settings.js";
import { collectReply } from "../../providers/collect-reply.js";
import { runtimeSeesImages } from "../../providers/image-parts.js";
import type { ImageAttachment } from "../../providers/messages.js";
import type { ModelClient } from "../../providers/model-client.js";
import { samplingContractOf } from "../../providers/sampling-contract.js";

/** The model that looks at images for a session, with the settings of the call. */
export type VisionRoute =
  | {
      readonly ok: true;
      readonly runtime: RuntimeProvider;
      /** `auxiliary.vision` (the configured side model) or `session` (the conversation's own model). */
      readonly source: "auxiliary.vision" | "session";
      readonly settings: VisionSettings;
    }
  | { readonly ok: false; readonly problem: string };

/**
 * A session's access to a model that sees images (ToolContext.vision). Made once per session by agent/session;
 * nothing is read or opened until the first image is analysed, so a mistake under `auxiliary.vision` cannot stop
 * sessions that never use it.
 */
export interface VisionModels {
  /** Who would look at an image now (the session's model may have been switched since the session opened). */
  route(): VisionRoute;
  /** Sends one user message (the prompt and the image) to the route's model and returns its reply as text. */
  ask(route: VisionRoute & { ok: true }, image: ImageAttachment, prompt: string, signal: AbortSignal): Promise<string>;
}

export interface VisionModelsOptions {
  readonly config: Pick<HermesConfig, "yaml" | "env" | "configPath">;
  /** The session's model as it is now: the fallback when `auxiliary.vision` names no endpoint. */
  readonly sessionRuntime: () => RuntimeProvider;
  /** Opens a client for a runtime (createModelClient; tests may substitute one). */
  readonly openClient: (runtime: RuntimeProvider) => Promise<ModelClient>;
}

export function createVisionModels(options: VisionModelsOptions): VisionModels {
  // One client per endpoint, reused across calls (opening one loads an SDK); keyed by what the client binds.
  let cached: { readonly key: string; readonly client: Promise<ModelClient> } | undefined;
  const clientFor = (runtime: RuntimeProvider): Promise<ModelClient> => {
    const key = [runtime.apiMode, runtime.baseUrl, runtime.model, runtime.apiKey ?? ""].join("\n");
    if (cached?.key !== key) cached = { key, client: options.openClient(runtime) };
    return cached.client;
  };
  return {
    route: () => visionRoute(options),
    async ask(route, image, prompt, signal) {
      try {
        const client = await clientFor(route.runtime);
        // Upstream retries once when the reply is empty (a reasoning model that spent its turn thinking).
        const first = await replyOf(client, route, image, prompt, signal);
        return first || (await replyOf(client, route, image, prompt, signal));
      } catch (error) {
        cached = undefined;
        throw error;
      }
    },
  };
}

/**
 * Upstream's order: the `auxiliary.vision` endpoint when one is configured (provider, base_url or model; a model alone
 * runs on the session's provider), else the session's model when it accepts images, else nothing, said so that the
 * user knows what to set.
 */
function visionRoute(options: VisionModelsOptions): VisionRoute {
  const { config } = options;
  let settings: VisionSettings;
  try {
    settings = readVisionSettings(config.yaml, config.env);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  const session = options.sessionRuntime();
  const { endpoint } = settings;
  if (endpoint.provider || endpoint.baseUrl || endpoint.model) {
    const resolution = resolveChildRuntime(endpoint, session, config.env, config.configPath, "auxiliary.vision");
    if (!resolution.ok) return { ok: false, problem: resolution.problem };
    // The user named this model for images: it is sent them as images whatever the model table says of its name.
    return { ok: true, runtime: { ...resolution.runtime, supportsVision: true }, source: "auxiliary.vision", settings };
  }
  if (runtimeSeesImages(session)) return { ok: true, runtime: session, source: "session", settings };
  return {
    ok: false,
    problem:
      `No model here can look at images: the session's model (${session.model}) does not accept images and ` +
      `auxiliary.vision is not configured. Set auxiliary.vision in ${config.configPath} to a vision-capable model ` +
      "(provider and model, or base_url, model and api_key), or switch to a model that accepts images " +
      "(model.supports_vision: true if yours does and Hermes does not know it).",
  };
}

async function replyOf(
  client: ModelClient,
  route: VisionRoute & { ok: true },
  image: ImageAttachment,
  prompt: string,
  signal: AbortSignal,
): Promise<string> {
  const request = {
    model: route.runtime.model,
    systemPrompt: "",
    messages: [{ role: "user" as const, content: prompt, images: [image] }],
    tools: [],
    // Models that take only their default temperature (OpenAI's reasoning models) are not sent one.
    ...(samplingContractOf(route.runtime).fixedTemperature ? {} : { temperature: route.settings.temperature }),
  };
  const { text, reasoning } = await collectReply(client, request, signal);
  // Upstream's extract_content_or_reasoning: a reply that is all reasoning is still the model's answer.
  return (text.trim() || reasoning.trim()).trim();
}

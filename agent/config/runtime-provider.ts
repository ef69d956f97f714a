import type { Env } from "./hermes-home.js";
import { contextLengthOf, seesImages } from "./model-metadata.js";
import type { ModelSettings } from "./model-settings.js";
import { type ApiMode, findProvider } from "./provider-catalog.js";

/** Everything needed to open a connection to the model, resolved from config.yaml and the environment. */
export interface RuntimeProvider {
  readonly providerId: string;
  readonly providerLabel: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly apiMode: ApiMode;
  readonly apiKey: string | undefined;
  /** Where the key came from ("OPENROUTER_API_KEY", "config.yaml model.api_key"); never the key itself. */
  readonly keySource: string | undefined;
  /** The variables that may hold this provider's key, for messages that tell the user what to set. */
  readonly keyVariables: readonly string[];
  readonly keyOptional: boolean;
  readonly contextLength: number | undefined;
  /** Whether images reach this model as images (`supports_vision` or the model table); absent means unknown, so no. */
  readonly supportsVision?: boolean;
}

export type RuntimeResolution =
  | { readonly ok: true; readonly runtime: RuntimeProvider }
  | { readonly ok: false; readonly problem: string };

/**
 * Provider resolution as the Python original does it: provider name → base URL, API mode and key variable.
 * An explicit `base_url` or `api_mode` in config.yaml overrides the provider's defaults; `model.api_key` beats
 * the environment. With a base_url but no provider, the endpoint is taken as `custom`.
 */
export function resolveRuntimeProvider(settings: ModelSettings, env: Env, configPath: string): RuntimeResolution {
  const providerName = settings.provider ?? (settings.baseUrl ? "custom" : "openrouter");
  const info = findProvider(providerName);
  if (!info) return { ok: false, problem: `Unknown provider '${providerName}' in ${configPath}.` };
  const baseUrl = settings.baseUrl ?? info.baseUrl;
  if (!baseUrl) {
    return {
      ok: false,
      problem: `Provider '${info.id}' needs model.base_url in ${configPath} (for example http://127.0.0.1:11434/v1 for Ollama).`,
    };
  }
  if (!settings.model) {
    return {
      ok: false,
      problem: `No model configured: set model.default in ${configPath} (for example "anthropic/claude-sonnet-4" with provider openrouter).`,
    };
  }
  let apiKey = settings.apiKey;
  let keySource = apiKey ? "config.yaml model.api_key" : undefined;
  if (!apiKey) {
    for (const variable of info.keyVariables) {
      const value = env[variable]?.trim();
      if (value) {
        apiKey = value;
        keySource = variable;
        break;
      }
    }
  }
  if (!apiKey && !info.keyOptional) {
    return {
      ok: false,
      problem: `No API key for ${info.label}: set ${info.keyVariables.join(" or ")} in the environment or in ${envFileHint(configPath)}, or model.api_key in ${configPath}.`,
    };
  }
  return {
    ok: true,
    runtime: {
      providerId: info.id,
      providerLabel: info.label,
      model: settings.model,
      baseUrl,
      apiMode: settings.apiMode ?? info.apiMode,
      apiKey,
      keySource,
      keyVariables: info.keyVariables,
      keyOptional: info.keyOptional,
      contextLength: contextLengthOf(settings.model, settings.contextLength),
      supportsVision: seesImages(settings.model, settings.supportsVision),
    },
  };
}

function envFileHint(configPath: string): string {
  return configPath.replace(/config\.yaml$/, ".env");
}

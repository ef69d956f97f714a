import { isHttpUrl } from "./http-url.js";
import { API_MODES, findProvider, knownProviderIds, type ApiMode } from "./provider-catalog.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** The `model:` section of config.yaml, checked. */
export interface ModelSettings {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiMode?: ApiMode;
  readonly apiKey?: string;
  readonly contextLength?: number;
  /** Retries of a failed model request before giving up or falling back (default 3). */
  readonly maxRetries?: number;
}

/**
 * Reads `model:`. Accepts upstream's shapes: a mapping with `default` (or `model`) and, as a shorthand, a bare
 * string naming the model. Wrong types and unknown names are ConfigErrors that point at the offending line.
 */
export function readModelSettings(yaml: YamlFile): ModelSettings {
  const section = yaml.data.model;
  if (section === undefined || section === null) return {};
  if (typeof section === "string") return { model: section.trim() || undefined };
  if (typeof section !== "object" || Array.isArray(section)) fail(yaml, ["model"], "`model` must be a mapping (provider, default, base_url, api_mode)");
  const m = section as Record<string, unknown>;
  const provider = optionalString(yaml, m, "provider");
  if (provider && !findProvider(provider)) {
    fail(yaml, ["model", "provider"], `unknown provider '${provider}'; known providers: ${knownProviderIds().join(", ")}`);
  }
  const apiMode = optionalString(yaml, m, "api_mode");
  if (apiMode && !API_MODES.includes(apiMode as ApiMode)) {
    fail(yaml, ["model", "api_mode"], `api_mode must be one of ${API_MODES.join(", ")}, not '${apiMode}'`);
  }
  const baseUrl = optionalString(yaml, m, "base_url");
  if (baseUrl && !isHttpUrl(baseUrl)) fail(yaml, ["model", "base_url"], `base_url must be an http(s) URL, not '${baseUrl}'`);
  return {
    provider,
    model: optionalString(yaml, m, "default") ?? optionalString(yaml, m, "model"),
    baseUrl,
    apiMode: apiMode as ApiMode | undefined,
    apiKey: optionalString(yaml, m, "api_key"),
    contextLength: optionalPositiveInt(yaml, m, "context_length"),
    maxRetries: optionalCount(yaml, m, "max_retries"),
  };
}

function optionalString(yaml: YamlFile, m: Record<string, unknown>, key: string): string | undefined {
  const value = m[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") fail(yaml, ["model", key], `model.${key} must be a string`);
  return value.trim() || undefined;
}

function optionalPositiveInt(yaml: YamlFile, m: Record<string, unknown>, key: string): number | undefined {
  const value = m[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) fail(yaml, ["model", key], `model.${key} must be a positive whole number`);
  return value;
}

function optionalCount(yaml: YamlFile, m: Record<string, unknown>, key: string): number | undefined {
  const value = m[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) fail(yaml, ["model", key], `model.${key} must be a whole number, 0 or more`);
  return value;
}

function fail(yaml: YamlFile, path: string[], message: string): never {
  throw configErrorAt(yaml, path, message);
}

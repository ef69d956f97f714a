import { isHttpUrl } from "./http-url.js";
import { API_MODES, type ApiMode, findProvider, knownProviderIds } from "./provider-catalog.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** The fields that name a model endpoint, shared by `model:` and each `fallback_providers` entry. */
export interface EndpointFields {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiMode?: ApiMode;
  readonly apiKey?: string;
  readonly contextLength?: number;
  /** `supports_vision`: whether the model accepts images, overriding the built-in table (upstream's key). */
  readonly supportsVision?: boolean;
}

/**
 * Reads and checks a mapping's endpoint fields (provider, default or model, base_url, api_mode, api_key,
 * context_length). `path` locates the mapping in config.yaml and `label` names it in messages, so every error points
 * at the offending line.
 */
export function readEndpointFields(
  yaml: YamlFile,
  path: readonly string[],
  label: string,
  m: Record<string, unknown>,
): EndpointFields {
  const fail = (key: string, message: string): never => {
    throw configErrorAt(yaml, [...path, key], message);
  };
  const str = (key: string): string | undefined => {
    const value = m[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") fail(key, `${label}.${key} must be a string`);
    return (value as string).trim() || undefined;
  };
  const provider = str("provider");
  if (provider && !findProvider(provider))
    fail("provider", `unknown provider '${provider}'; known providers: ${knownProviderIds().join(", ")}`);
  const apiMode = str("api_mode");
  if (apiMode && !API_MODES.includes(apiMode as ApiMode))
    fail("api_mode", `api_mode must be one of ${API_MODES.join(", ")}, not '${apiMode}'`);
  const baseUrl = str("base_url");
  if (baseUrl && !isHttpUrl(baseUrl)) fail("base_url", `base_url must be an http(s) URL, not '${baseUrl}'`);
  const contextLength = m.context_length;
  if (
    contextLength !== undefined &&
    contextLength !== null &&
    (typeof contextLength !== "number" || !Number.isInteger(contextLength) || contextLength <= 0)
  ) {
    fail("context_length", `${label}.context_length must be a positive whole number`);
  }
  const supportsVision = readCapability(m.supports_vision);
  if (supportsVision === null) fail("supports_vision", `${label}.supports_vision must be true or false`);
  return {
    provider,
    model: str("default") ?? str("model"),
    baseUrl,
    apiMode: apiMode as ApiMode | undefined,
    apiKey: str("api_key"),
    contextLength: (contextLength ?? undefined) as number | undefined,
    ...(supportsVision === undefined ? {} : { supportsVision: supportsVision as boolean }),
  };
}

/**
 * A capability flag as upstream reads it: a YAML boolean, 0/1, or yes/no/on/off/true/false as text (a quoted
 * "false" must not read as true). undefined when absent, null when it is none of these.
 */
function readCapability(value: unknown): boolean | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== "string") return null;
  const word = value.trim().toLowerCase();
  if (["true", "yes", "on", "1"].includes(word)) return true;
  if (["false", "no", "off", "0"].includes(word)) return false;
  return null;
}

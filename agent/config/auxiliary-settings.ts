import { type EndpointFields, readEndpointFields } from "./endpoint-fields.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/**
 * One `auxiliary.<task>` section of config.yaml (upstream's side models: `approval` for the smart judge, `vision`
 * for vision_analyze): which endpoint answers, and how long it may take. Each task's settings reader adds its own
 * keys on top of this.
 */
export interface AuxiliaryTaskSettings {
  /** provider, model, base_url, api_key, api_mode; empty means the session's current model (see resolveChildRuntime). */
  readonly endpoint: EndpointFields;
  /** `auxiliary.<task>.timeout`, in milliseconds. */
  readonly timeoutMs: number;
  /** The raw section, for the task's own keys (an empty mapping when the section is absent). */
  readonly section: Readonly<Record<string, unknown>>;
}

/**
 * Upstream writes `provider: auto` (older configs) or `provider: main` for "use the conversation's route"; both
 * mean the same as leaving the provider out, so a config carried over from Python Hermes keeps working.
 */
const MAIN_ROUTE_PROVIDERS = new Set(["auto", "main", ""]);

export function readAuxiliaryTask(yaml: YamlFile, task: string, defaultTimeoutSeconds: number): AuxiliaryTaskSettings {
  const auxiliary = configMapping(yaml, ["auxiliary"], yaml.data.auxiliary);
  const section = configMapping(yaml, ["auxiliary", task], auxiliary[task]);
  const provider = section.provider;
  const fields =
    typeof provider === "string" && MAIN_ROUTE_PROVIDERS.has(provider.trim().toLowerCase())
      ? { ...section, provider: undefined }
      : section;
  return {
    endpoint: readEndpointFields(yaml, ["auxiliary", task], `auxiliary.${task}`, fields),
    timeoutMs: positiveSeconds(yaml, ["auxiliary", task, "timeout"], section.timeout, defaultTimeoutSeconds) * 1000,
    section,
  };
}

/** A number of seconds at `path`, or `fallback` when absent; zero, negative or not a number is a config error. */
export function positiveSeconds(yaml: YamlFile, path: readonly string[], value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw configErrorAt(yaml, path, `${path.join(".")} must be a positive number of seconds`);
  return value;
}

/** The mapping at `path`, an empty one when absent; anything else is a config error naming the key. */
export function configMapping(yaml: YamlFile, path: readonly string[], value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw configErrorAt(yaml, path, `\`${path.join(".")}\` must be a mapping`);
  return value as Record<string, unknown>;
}

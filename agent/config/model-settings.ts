import { type EndpointFields, readEndpointFields } from "./endpoint-fields.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** The `model:` section of config.yaml, checked. */
export interface ModelSettings extends EndpointFields {
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
  if (typeof section !== "object" || Array.isArray(section))
    fail(yaml, ["model"], "`model` must be a mapping (provider, default, base_url, api_mode)");
  const m = section as Record<string, unknown>;
  return { ...readEndpointFields(yaml, ["model"], "model", m), maxRetries: optionalCount(yaml, m, "max_retries") };
}

function optionalCount(yaml: YamlFile, m: Record<string, unknown>, key: string): number | undefined {
  const value = m[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    fail(yaml, ["model", key], `model.${key} must be a whole number, 0 or more`);
  return value;
}

function fail(yaml: YamlFile, path: string[], message: string): never {
  throw configErrorAt(yaml, path, message);
}

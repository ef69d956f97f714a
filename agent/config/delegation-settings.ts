import { type EndpointFields, readEndpointFields } from "./endpoint-fields.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** config.yaml `delegation:`, with the defaults of the Python original's delegate_task. */
export interface DelegationSettings {
  /** `max_iterations`: model calls each subagent may make (its own budget, not the parent's). */
  readonly maxIterations: number;
  /** `max_concurrent_children`: the most tasks one batch may hold; they all run at once. */
  readonly maxConcurrentChildren: number;
  /** `child_timeout_seconds`: wall-clock cap per subagent; undefined when set to 0 or less (no cap). */
  readonly childTimeoutSeconds: number | undefined;
  /** `provider`, `model`, `base_url`, `api_key`, `api_mode`: another model for subagents; empty means the parent's. */
  readonly endpoint: EndpointFields;
}

export const DEFAULT_DELEGATION_SETTINGS: DelegationSettings = {
  maxIterations: 50,
  maxConcurrentChildren: 3,
  childTimeoutSeconds: 600,
  endpoint: {},
};

/**
 * Reads `delegation:`. Upstream quietly falls back to a default when a value is not a number; here a wrong value is
 * a ConfigError on its line, like every other section, so a typo never silently changes how many agents run.
 */
export function readDelegationSettings(yaml: YamlFile): DelegationSettings {
  const section = yaml.data.delegation;
  if (section === undefined || section === null) return DEFAULT_DELEGATION_SETTINGS;
  if (typeof section !== "object" || Array.isArray(section)) {
    throw configErrorAt(
      yaml,
      ["delegation"],
      "`delegation` must be a mapping (max_iterations, max_concurrent_children, child_timeout_seconds, provider, model)",
    );
  }
  const d = section as Record<string, unknown>;
  const defaults = DEFAULT_DELEGATION_SETTINGS;
  return {
    maxIterations: positiveInt(yaml, d, "max_iterations") ?? defaults.maxIterations,
    maxConcurrentChildren: positiveInt(yaml, d, "max_concurrent_children") ?? defaults.maxConcurrentChildren,
    childTimeoutSeconds: timeoutSeconds(yaml, d),
    endpoint: readEndpointFields(yaml, ["delegation"], "delegation", d),
  };
}

function positiveInt(yaml: YamlFile, d: Record<string, unknown>, key: string): number | undefined {
  const value = d[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw configErrorAt(yaml, ["delegation", key], `delegation.${key} must be a positive whole number`);
  }
  return value;
}

/** Upstream: 0 or a negative number turns the cap off. */
function timeoutSeconds(yaml: YamlFile, d: Record<string, unknown>): number | undefined {
  const value = d.child_timeout_seconds;
  if (value === undefined || value === null) return DEFAULT_DELEGATION_SETTINGS.childTimeoutSeconds;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw configErrorAt(
      yaml,
      ["delegation", "child_timeout_seconds"],
      "delegation.child_timeout_seconds must be a number of seconds (0 for no limit)",
    );
  }
  return value > 0 ? value : undefined;
}

import { readEndpointFields } from "./endpoint-fields.js";
import type { Env } from "./hermes-home.js";
import type { ModelSettings } from "./model-settings.js";
import { type RuntimeProvider, resolveRuntimeProvider } from "./runtime-provider.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** One entry of `fallback_providers`, with where it sits in config.yaml for messages. */
export interface FallbackEntry {
  /** "fallback_providers[0]" or "fallback_model". */
  readonly where: string;
  readonly settings: ModelSettings;
}

/**
 * Reads upstream's `fallback_providers:` (a list of mappings: provider, model or default, base_url, api_mode,
 * api_key, context_length) and, when that list is absent, the older single `fallback_model:` mapping. Wrong types
 * and unknown names are ConfigErrors that point at the offending line, like the `model:` section's.
 */
export function readFallbackSettings(yaml: YamlFile): FallbackEntry[] {
  const list = yaml.data.fallback_providers;
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list))
      fail(yaml, ["fallback_providers"], "`fallback_providers` must be a list of mappings (provider, model)");
    return list.map((entry: unknown, i) => ({
      where: `fallback_providers[${i}]`,
      settings: readEntry(yaml, ["fallback_providers", String(i)], entry),
    }));
  }
  const single = yaml.data.fallback_model;
  if (single === undefined || single === null) return [];
  return [{ where: "fallback_model", settings: readEntry(yaml, ["fallback_model"], single) }];
}

function readEntry(yaml: YamlFile, path: readonly string[], entry: unknown): ModelSettings {
  const name = label(path);
  if (typeof entry !== "object" || entry === null || Array.isArray(entry))
    fail(yaml, path, `${name} must be a mapping (provider, model)`);
  const fields = readEndpointFields(yaml, path, name, entry as Record<string, unknown>);
  if (!fields.provider && !fields.baseUrl)
    fail(yaml, path, `${name} needs a provider (or a base_url for a custom endpoint)`);
  if (!fields.model) fail(yaml, path, `${name} needs a model`);
  return fields;
}

export interface SkippedFallback {
  readonly where: string;
  readonly reason: string;
}

export interface ResolvedFallbacks {
  readonly runtimes: RuntimeProvider[];
  /** Entries left out, each with why (no key, no base URL, same as the primary), for a status line or a log. */
  readonly skipped: SkippedFallback[];
}

/**
 * Resolves each entry as `model:` is resolved (provider defaults, key from the entry or the environment). An entry
 * that cannot run (its key is missing, say) is skipped with a reason rather than failing the whole session: a
 * fallback is a nice-to-have, and the primary may well work. An entry identical to the primary is skipped too.
 */
export function resolveFallbackProviders(
  entries: readonly FallbackEntry[],
  env: Env,
  configPath: string,
  primary?: RuntimeProvider,
): ResolvedFallbacks {
  const runtimes: RuntimeProvider[] = [];
  const skipped: SkippedFallback[] = [];
  for (const entry of entries) {
    const resolution = resolveRuntimeProvider(entry.settings, env, configPath);
    if (!resolution.ok) {
      skipped.push({ where: entry.where, reason: resolution.problem });
      continue;
    }
    const runtime = resolution.runtime;
    const same = (r: RuntimeProvider) =>
      r.providerId === runtime.providerId && r.model === runtime.model && r.baseUrl === runtime.baseUrl;
    if ((primary && same(primary)) || runtimes.some(same)) {
      skipped.push({
        where: entry.where,
        reason: `${runtime.providerLabel} with model ${runtime.model} is already in use before it.`,
      });
      continue;
    }
    runtimes.push(runtime);
  }
  return { runtimes, skipped };
}

function label(path: readonly string[]): string {
  return path.length === 2 ? `${path[0]}[${path[1]}]` : path.join(".");
}

function fail(yaml: YamlFile, path: readonly string[], message: string): never {
  throw configErrorAt(yaml, path, message);
}

import { positiveSeconds, readAuxiliaryTask } from "./auxiliary-settings.js";
import type { EndpointFields } from "./endpoint-fields.js";
import type { Env } from "./hermes-home.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** Who looks at images for vision_analyze (and browser_vision): config.yaml `auxiliary.vision`, as upstream. */
export interface VisionSettings {
  /** provider, model, base_url, api_key; empty means no side model: the session's own model, if it sees images. */
  readonly endpoint: EndpointFields;
  /** `auxiliary.vision.timeout` (default 120 s: local vision models are slow). */
  readonly timeoutMs: number;
  /** `auxiliary.vision.temperature` (default 0.1). */
  readonly temperature: number;
  /** HERMES_VISION_DOWNLOAD_TIMEOUT, else `auxiliary.vision.download_timeout` (default 30 s): fetching an image URL. */
  readonly downloadTimeoutMs: number;
}

export const DEFAULT_VISION_TIMEOUT_SECONDS = 120;
export const DEFAULT_VISION_TEMPERATURE = 0.1;
export const DEFAULT_VISION_DOWNLOAD_TIMEOUT_SECONDS = 30;

/** Reads `auxiliary.vision`; a wrong value is a ConfigError naming its line. `AUXILIARY_VISION_MODEL` is upstream's legacy override for the model. */
export function readVisionSettings(yaml: YamlFile, env: Env): VisionSettings {
  const { endpoint, timeoutMs, section } = readAuxiliaryTask(yaml, "vision", DEFAULT_VISION_TIMEOUT_SECONDS);
  const legacyModel = env.AUXILIARY_VISION_MODEL?.trim();
  const temperature = section.temperature ?? DEFAULT_VISION_TEMPERATURE;
  if (typeof temperature !== "number" || !Number.isFinite(temperature) || temperature < 0)
    throw configErrorAt(
      yaml,
      ["auxiliary", "vision", "temperature"],
      "auxiliary.vision.temperature must be a number ≥ 0",
    );
  return {
    endpoint: !endpoint.model && legacyModel ? { ...endpoint, model: legacyModel } : endpoint,
    timeoutMs,
    temperature,
    downloadTimeoutMs: downloadSeconds(yaml, env, section.download_timeout) * 1000,
  };
}

/** Upstream skips a bad environment value for the next source, so a typo there cannot disable the cap. */
function downloadSeconds(yaml: YamlFile, env: Env, configured: unknown): number {
  const fromEnv = Number(env.HERMES_VISION_DOWNLOAD_TIMEOUT?.trim() || Number.NaN);
  if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
  return positiveSeconds(
    yaml,
    ["auxiliary", "vision", "download_timeout"],
    configured,
    DEFAULT_VISION_DOWNLOAD_TIMEOUT_SECONDS,
  );
}

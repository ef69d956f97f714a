import { configErrorAt, type YamlFile } from "../config/yaml-file.js";

/** config.yaml `compression:`, with upstream's defaults. */
export interface CompressionSettings {
  /** Compress automatically at the threshold. `/compress` works even when this is off. */
  readonly enabled: boolean;
  /** Fraction of the model's context window at which the history is compressed (0 < t ≤ 1). */
  readonly threshold: number;
  /** Fraction of the threshold's tokens kept verbatim as the recent tail (0.10–0.80). */
  readonly targetRatio: number;
  /** Recent messages kept however large they are (the floor is max(3, min(this, 8))). */
  readonly protectLastN: number;
}

export const DEFAULT_COMPRESSION_SETTINGS: CompressionSettings = {
  enabled: true,
  threshold: 0.5,
  targetRatio: 0.2,
  protectLastN: 20,
};

/**
 * Reads `compression:`. Upstream silently clamps some of these; a value outside its range here is a ConfigError on
 * its line instead, because a typo such as `threshold: 50` (meaning 50 %) would otherwise compress on every turn
 * or never.
 */
export function readCompressionSettings(yaml: YamlFile): CompressionSettings {
  const section = yaml.data.compression;
  if (section === undefined || section === null) return DEFAULT_COMPRESSION_SETTINGS;
  if (typeof section !== "object" || Array.isArray(section)) {
    throw configErrorAt(
      yaml,
      ["compression"],
      "`compression` must be a mapping (enabled, threshold, target_ratio, protect_last_n)",
    );
  }
  const c = section as Record<string, unknown>;
  const defaults = DEFAULT_COMPRESSION_SETTINGS;
  return {
    enabled: boolean(yaml, "enabled", c.enabled) ?? defaults.enabled,
    threshold:
      fraction(
        yaml,
        "threshold",
        c.threshold,
        0,
        1,
        "greater than 0 and at most 1 (0.50 is half the context window)",
        true,
      ) ?? defaults.threshold,
    targetRatio:
      fraction(yaml, "target_ratio", c.target_ratio, 0.1, 0.8, "between 0.10 and 0.80", false) ?? defaults.targetRatio,
    protectLastN: positiveInt(yaml, "protect_last_n", c.protect_last_n) ?? defaults.protectLastN,
  };
}

function boolean(yaml: YamlFile, key: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean")
    throw configErrorAt(yaml, ["compression", key], `compression.${key} must be true or false`);
  return value;
}

function fraction(
  yaml: YamlFile,
  key: string,
  value: unknown,
  min: number,
  max: number,
  range: string,
  minExclusive: boolean,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const inRange =
    typeof value === "number" && Number.isFinite(value) && (minExclusive ? value > min : value >= min) && value <= max;
  if (!inRange)
    throw configErrorAt(
      yaml,
      ["compression", key],
      `compression.${key} must be a number ${range}, not ${JSON.stringify(value)}`,
    );
  return value;
}

function positiveInt(yaml: YamlFile, key: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw configErrorAt(
      yaml,
      ["compression", key],
      `compression.${key} must be a whole number of at least 1, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

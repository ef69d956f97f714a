import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** config.yaml `checkpoints:` as an editor session reads it. */
export interface CheckpointSettings {
  /**
   * `enabled`: snapshot the workspace before each turn's first change. On by default here, unlike upstream's CLI
   * (off unless `--checkpoints`): in an editor, accepted edits and commands have no other undo.
   */
  readonly enabled: boolean;
  /** `max_snapshots` (upstream's key and default, 20): older checkpoints of the directory are dropped. */
  readonly maxSnapshots: number;
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = { enabled: true, maxSnapshots: 20 };

/** Reads `checkpoints:`; a wrong value is a ConfigError on its line rather than a silent default. */
export function readCheckpointSettings(yaml: YamlFile): CheckpointSettings {
  const section = yaml.data.checkpoints;
  if (section === undefined || section === null) return DEFAULT_CHECKPOINT_SETTINGS;
  // Upstream also accepts `checkpoints: false` as shorthand; so does this.
  if (typeof section === "boolean") return { ...DEFAULT_CHECKPOINT_SETTINGS, enabled: section };
  if (typeof section !== "object" || Array.isArray(section))
    throw configErrorAt(yaml, ["checkpoints"], "`checkpoints` must be a mapping (enabled, max_snapshots)");
  const c = section as Record<string, unknown>;
  const enabled = c.enabled ?? DEFAULT_CHECKPOINT_SETTINGS.enabled;
  if (typeof enabled !== "boolean")
    throw configErrorAt(yaml, ["checkpoints", "enabled"], "checkpoints.enabled must be true or false");
  const max = c.max_snapshots ?? DEFAULT_CHECKPOINT_SETTINGS.maxSnapshots;
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1)
    throw configErrorAt(
      yaml,
      ["checkpoints", "max_snapshots"],
      "checkpoints.max_snapshots must be a whole number, 1 or more",
    );
  return { enabled, maxSnapshots: max };
}

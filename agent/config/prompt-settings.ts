import { readSkillSettings, type SkillSettings } from "./skill-settings.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** The config.yaml settings that shape the system prompt, with upstream's defaults. */
export interface PromptSettings {
  /** Top-level `context_file_max_chars`; undefined means the dynamic cap from the model's context length. */
  readonly contextFileMaxChars: number | undefined;
  readonly memoryEnabled: boolean;
  readonly userProfileEnabled: boolean;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
  /** The `skills:` section: where skills are found for the prompt's index (defaults when left out). */
  readonly skills?: SkillSettings;
}

export function readPromptSettings(yaml: YamlFile): PromptSettings {
  const memory = section(yaml, "memory");
  return {
    contextFileMaxChars: positiveNumber(yaml, ["context_file_max_chars"], yaml.data.context_file_max_chars),
    memoryEnabled: bool(yaml, ["memory", "memory_enabled"], memory.memory_enabled, true),
    userProfileEnabled: bool(yaml, ["memory", "user_profile_enabled"], memory.user_profile_enabled, true),
    memoryCharLimit: positiveNumber(yaml, ["memory", "memory_char_limit"], memory.memory_char_limit) ?? 2200,
    userCharLimit: positiveNumber(yaml, ["memory", "user_char_limit"], memory.user_char_limit) ?? 1375,
    skills: readSkillSettings(yaml),
  };
}

function section(yaml: YamlFile, key: string): Record<string, unknown> {
  const value = yaml.data[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) fail(yaml, [key], `\`${key}\` must be a mapping`);
  return value as Record<string, unknown>;
}

function positiveNumber(yaml: YamlFile, path: string[], value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !(value > 0)) fail(yaml, path, `${path.join(".")} must be a number greater than 0`);
  return value;
}

function bool(yaml: YamlFile, path: string[], value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean") fail(yaml, path, `${path.join(".")} must be true or false`);
  return value;
}

function fail(yaml: YamlFile, path: string[], message: string): never {
  throw configErrorAt(yaml, path, message);
}

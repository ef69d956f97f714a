import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** The `skills:` section of config.yaml, with upstream's defaults (agent/skill_utils.py, agent/skill_preprocessing.py). */
export interface SkillSettings {
  /** `skills.external_dirs`: more skill folders, as written (expanded and checked when skills are discovered). */
  readonly externalDirs: readonly string[];
  /** `skills.trusted_project_dirs`: project roots whose `.hermes/skills` and `.agents/skills` may load. */
  readonly trustedProjectDirs: readonly string[];
  /** `skills.project_discovery` (default true): false turns project skills off altogether. */
  readonly projectDiscovery: boolean;
  /** `skills.disabled`: skill names hidden everywhere. */
  readonly disabled: readonly string[];
  /** `skills.platform_disabled.<platform>`: skill names hidden on one platform only (ours is `acp`). */
  readonly platformDisabled: Readonly<Record<string, readonly string[]>>;
  /** `skills.template_vars` (default true): `${HERMES_SKILL_DIR}` and `${HERMES_SESSION_ID}` are filled in. */
  readonly templateVars: boolean;
  /** `skills.config`: the values skills declare under `metadata.hermes.config` (keys are dotted paths below it). */
  readonly config: Readonly<Record<string, unknown>>;
}

export const DEFAULT_SKILL_SETTINGS: SkillSettings = {
  externalDirs: [],
  trustedProjectDirs: [],
  projectDiscovery: true,
  disabled: [],
  platformDisabled: {},
  templateVars: true,
  config: {},
};

export function readSkillSettings(yaml: YamlFile): SkillSettings {
  const raw = yaml.data.skills;
  if (raw === undefined || raw === null) return DEFAULT_SKILL_SETTINGS;
  if (typeof raw !== "object" || Array.isArray(raw))
    throw configErrorAt(yaml, ["skills"], "`skills` must be a mapping");
  const skills = raw as Record<string, unknown>;
  return {
    externalDirs: nameList(yaml, ["skills", "external_dirs"], skills.external_dirs),
    trustedProjectDirs: nameList(yaml, ["skills", "trusted_project_dirs"], skills.trusted_project_dirs),
    projectDiscovery: skills.project_discovery !== false,
    disabled: nameList(yaml, ["skills", "disabled"], skills.disabled),
    platformDisabled: platformLists(yaml, skills.platform_disabled),
    templateVars: skills.template_vars !== false,
    config: isMapping(skills.config) ? skills.config : {},
  };
}

/**
 * Upstream's `parse_config_string_list`: a list, a single name, or a list saved as a JSON/Python-literal string by
 * `hermes config set` (`'["a","b"]'`), which must not be read as one odd name. Anything else is an error here
 * (upstream ignores it silently, which hides the typo).
 */
function nameList(yaml: YamlFile, path: readonly string[], value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") {
    const text = value.trim();
    if (text.startsWith("[")) {
      const parsed = parseListLiteral(text);
      if (parsed) return parsed;
    }
    return text ? [text] : [];
  }
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
    return value.map((v) => String(v).trim()).filter((v) => v);
  }
  throw configErrorAt(yaml, path, `${path.join(".")} must be a list of names or paths`);
}

function parseListLiteral(text: string): string[] | undefined {
  try {
    // Python literals use single quotes; JSON needs double ones. Good enough for lists of plain names and paths.
    const parsed: unknown = JSON.parse(text.replace(/'/g, '"'));
    return Array.isArray(parsed) ? parsed.map((v) => String(v).trim()).filter((v) => v) : undefined;
  } catch {
    return undefined;
  }
}

function platformLists(yaml: YamlFile, value: unknown): Record<string, string[]> {
  if (value === undefined || value === null) return {};
  if (!isMapping(value))
    throw configErrorAt(
      yaml,
      ["skills", "platform_disabled"],
      "skills.platform_disabled must map platform names to lists of skill names",
    );
  const out: Record<string, string[]> = {};
  for (const [platform, names] of Object.entries(value))
    out[platform] = nameList(yaml, ["skills", "platform_disabled", platform], names);
  return out;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

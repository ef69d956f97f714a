import { parse as parseYaml } from "yaml";
import { pyStrip } from "../context/python-text.js";

export type Frontmatter = Readonly<Record<string, unknown>>;

export interface ParsedSkillFile {
  readonly frontmatter: Frontmatter;
  readonly body: string;
  /** False when the text opens a `---` block that does not close (in a prefix read, the rest of the file may close it). */
  readonly closed: boolean;
}

const CLOSING_FENCE = /\n---\s*\n/;

/**
 * Upstream's `parse_frontmatter` (agent/skill_utils.py): one leading BOM dropped (Windows editors add it, and left in
 * place it hides the whole frontmatter), a `---` block at the very top read as YAML, and when the YAML is broken,
 * plain `key: value` lines, so a skill with a stray colon still has a name and a description.
 */
export function parseSkillFile(raw: string): ParsedSkillFile {
  const content = raw.startsWith("\ufeff") ? raw.slice(1) : raw;
  if (!content.startsWith("---")) return { frontmatter: {}, body: content, closed: true };
  const end = CLOSING_FENCE.exec(content.slice(3));
  if (!end) return { frontmatter: {}, body: content, closed: false };
  const yamlText = content.slice(3, end.index + 3);
  const body = content.slice(end.index + end[0].length + 3);
  return { frontmatter: readYaml(yamlText), body, closed: true };
}

function readYaml(text: string): Frontmatter {
  try {
    const parsed: unknown = parseYaml(text, { maxAliasCount: 100 });
    return isMapping(parsed) ? parsed : {};
  } catch {
    const fallback: Record<string, unknown> = {};
    for (const line of pyStrip(text).split("\n")) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      fallback[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return fallback;
  }
}

/** `metadata.hermes`, where agentskills.io-style skills keep Hermes' own fields. */
export function hermesMetadata(frontmatter: Frontmatter): Readonly<Record<string, unknown>> {
  const metadata = frontmatter.metadata;
  if (!isMapping(metadata)) return {};
  return isMapping(metadata.hermes) ? metadata.hermes : {};
}

/** A frontmatter value that should be a list of names: a list, one name, or nothing. */
export function stringList(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((v) => String(v).trim()).filter((v) => v);
}

/** Upstream's `_normalize_skill_description`: the `description` field trimmed, surrounding quotes dropped. */
export function normalizedDescription(frontmatter: Frontmatter): string {
  const raw = frontmatter.description;
  if (raw === undefined || raw === null || raw === "" || raw === false) return "";
  return stripChars(pyStrip(String(raw)), "'\"");
}

/** Upstream's `SKILL_PROMPT_DESC_LIMIT`: descriptions in the system prompt's index are cut to 60 characters. */
export const INDEX_DESCRIPTION_LIMIT = 60;

export function indexDescription(frontmatter: Frontmatter): string {
  const description = normalizedDescription(frontmatter);
  return description.length > INDEX_DESCRIPTION_LIMIT
    ? `${description.slice(0, INDEX_DESCRIPTION_LIMIT - 3)}...`
    : description;
}

/** Upstream's `MAX_DESCRIPTION_LENGTH` for skills_list. */
const LIST_DESCRIPTION_LIMIT = 1024;

/** skills_list's description: the field as written, else the first body line that is not a heading; capped. */
export function listDescription(frontmatter: Frontmatter, body: string): string {
  let description =
    frontmatter.description === undefined || frontmatter.description === null ? "" : String(frontmatter.description);
  if (!description) {
    description =
      pyStrip(body)
        .split("\n")
        .map((l) => l.trim())
        .find((l) => l && !l.startsWith("#")) ?? "";
  }
  return description.length > LIST_DESCRIPTION_LIMIT
    ? `${description.slice(0, LIST_DESCRIPTION_LIMIT - 3)}...`
    : description;
}

/** Upstream's `_parse_tags`: a list, `"[a, b]"` or `"a, b"`; `metadata.hermes.<key>` first, then the top-level key. */
export function tagList(frontmatter: Frontmatter, key: string): string[] {
  const value = hermesMetadata(frontmatter)[key] || frontmatter[key];
  if (!value) return [];
  if (Array.isArray(value)) return value.filter((t) => t).map((t) => String(t).trim());
  let text = String(value).trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  return text
    .split(",")
    .filter((t) => t.trim())
    .map((t) => stripChars(t.trim(), "\"'"));
}

/** A config value a skill needs (`metadata.hermes.config`), stored under `skills.config.<key>` in config.yaml. */
export interface SkillConfigVar {
  readonly key: string;
  readonly description: string;
  readonly default?: unknown;
}

/** Upstream's `extract_skill_config_vars`: entries without a key or a description are skipped, keys once each. */
export function skillConfigVars(frontmatter: Frontmatter): SkillConfigVar[] {
  let raw = hermesMetadata(frontmatter).config;
  if (!raw) return [];
  if (isMapping(raw)) raw = [raw];
  if (!Array.isArray(raw)) return [];
  const vars: SkillConfigVar[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    if (!isMapping(item)) continue;
    const key = String(item.key ?? "").trim();
    const description = String(item.description ?? "").trim();
    if (!key || !description || seen.has(key)) continue;
    seen.add(key);
    vars.push(
      item.default === undefined || item.default === null
        ? { key, description }
        : { key, description, default: item.default },
    );
  }
  return vars;
}

export function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's `str.strip(chars)`. */
function stripChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

import { parse as parseYaml } from "yaml";

/*
 * skill_manage's input rules, in upstream's words (tools/skill_manager_tool.py): each check returns the error the
 * model is given, or undefined when the input passes. Pure: nothing here touches the disk.
 */

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** About 36k tokens: a larger SKILL.md belongs split into supporting files. */
export const MAX_SKILL_CONTENT_CHARS = 100_000;
export const MAX_SKILL_FILE_BYTES = 1_048_576;

/** Filesystem-safe, URL-friendly: the name is also the folder and the slash command. */
const VALID_NAME = /^[a-z0-9][a-z0-9._-]*$/;

/** Where write_file and remove_file may put a skill's supporting files. */
export const ALLOWED_SUBDIRS = ["assets", "references", "scripts", "templates"] as const;

export function nameProblem(name: string): string | undefined {
  if (!name) return "Skill name is required.";
  if (name.length > MAX_NAME_LENGTH) return `Skill name exceeds ${MAX_NAME_LENGTH} characters.`;
  if (!VALID_NAME.test(name))
    return `Invalid skill name '${name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.`;
  return undefined;
}

/** A category is one folder name; empty means none. */
export function categoryProblem(category: string | undefined): string | undefined {
  const value = category?.trim();
  if (!value) return undefined;
  const invalid = `Invalid category '${value}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Categories must be a single directory name.`;
  if (value.includes("/") || value.includes("\\")) return invalid;
  if (value.length > MAX_NAME_LENGTH) return `Category exceeds ${MAX_NAME_LENGTH} characters.`;
  return VALID_NAME.test(value) ? undefined : invalid;
}

const CLOSING_FENCE = /\n---\s*\n/;

/** SKILL.md must open with a YAML mapping holding `name` and `description` (≤ 1,024 characters), then a body. */
export function frontmatterProblem(raw: string): string | undefined {
  if (!raw.trim()) return "Content cannot be empty.";
  // A leading BOM (Windows editors) before the fence is tolerated.
  const content = raw.startsWith("\ufeff") ? raw.slice(1) : raw;
  if (!content.startsWith("---"))
    return "SKILL.md must start with YAML frontmatter (---). See existing skills for format.";
  const end = CLOSING_FENCE.exec(content.slice(3));
  if (!end) return "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.";
  let parsed: unknown;
  try {
    parsed = parseYaml(content.slice(3, end.index + 3), { maxAliasCount: 100 });
  } catch (error) {
    return `YAML frontmatter parse error: ${(error as Error).message}`;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return "Frontmatter must be a YAML mapping (key: value pairs).";
  const fields = parsed as Record<string, unknown>;
  if (!("name" in fields)) return "Frontmatter must include 'name' field.";
  if (!("description" in fields)) return "Frontmatter must include 'description' field.";
  if (String(fields.description).length > MAX_DESCRIPTION_LENGTH)
    return `Description exceeds ${MAX_DESCRIPTION_LENGTH} characters.`;
  if (!content.slice(end.index + end[0].length + 3).trim())
    return "SKILL.md must have content after the frontmatter (instructions, procedures, etc.).";
  return undefined;
}

export function contentSizeProblem(content: string, label = "SKILL.md"): string | undefined {
  if (content.length <= MAX_SKILL_CONTENT_CHARS) return undefined;
  return (
    `${label} content is ${content.length.toLocaleString("en-US")} characters ` +
    `(limit: ${MAX_SKILL_CONTENT_CHARS.toLocaleString("en-US")}). ` +
    "Consider splitting into a smaller SKILL.md with supporting files in references/ or templates/."
  );
}

export function fileSizeProblem(content: string): string | undefined {
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes <= MAX_SKILL_FILE_BYTES) return undefined;
  return (
    `File content is ${bytes.toLocaleString("en-US")} bytes ` +
    `(limit: ${MAX_SKILL_FILE_BYTES.toLocaleString("en-US")} bytes / 1 MiB). Consider splitting into smaller files.`
  );
}

/**
 * A supporting file's path: relative, no `..`, under one of ALLOWED_SUBDIRS with a file name; SKILL.md itself is
 * accepted as `SKILL.md` or `<skill>/SKILL.md`. Symlinks are checked when the path is resolved on disk.
 */
export function filePathProblem(filePath: string): string | undefined {
  if (!filePath) return "file_path is required.";
  const parts = filePath.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return "Path traversal ('..') is not allowed.";
  if (filePath.startsWith("/") || filePath.startsWith("\\") || /^[A-Za-z]:/.test(filePath))
    return `File must be under one of: ${ALLOWED_SUBDIRS.join(", ")}. Got: '${filePath}'`;
  if (parts.at(-1) === "SKILL.md" && parts.length <= 2) return undefined;
  if (!parts[0] || !(ALLOWED_SUBDIRS as readonly string[]).includes(parts[0]))
    return `File must be under one of: ${ALLOWED_SUBDIRS.join(", ")}. Got: '${filePath}'`;
  if (parts.length < 2) return `Provide a file path, not just a directory. Example: '${parts[0]}/myfile.md'`;
  return undefined;
}

/** The file a supporting-file path names below the skill's folder ("SKILL.md" for either spelling of it). */
export function relativeSkillFile(filePath: string): string {
  const parts = filePath.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  return parts.at(-1) === "SKILL.md" && parts.length <= 2 ? "SKILL.md" : parts.join("/");
}

import { readdirSync, readFileSync } from "node:fs";
import { basename, extname, join, relative, sep } from "node:path";
import { realpathOr, statOr } from "../context/fs-probe.js";
import { type ReadBlockOptions, readBlockedError } from "../security/file-safety.js";
import { SKILL_SUPPORT_DIRS } from "./skill-files.js";
import { type SkillFailure, threatFailure } from "./skill-loader.js";

/**
 * Upstream's `_skill_linked_files`: what a skill's support folders hold, for skill_view's `linked_files` and the
 * slash-command message. references and scripts are read one level deep, templates and assets recursively.
 */
const LINKED_FILE_SPECS: ReadonlyArray<{
  dir: (typeof SKILL_SUPPORT_DIRS)[number];
  exts: readonly string[] | "any";
  recursive: boolean;
}> = [
  { dir: "references", exts: [".md"], recursive: false },
  { dir: "templates", exts: [".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"], recursive: true },
  { dir: "assets", exts: "any", recursive: true },
  { dir: "scripts", exts: [".py", ".sh", ".bash", ".js", ".ts", ".rb"], recursive: false },
];

export function linkedFiles(skillDir: string | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!skillDir) return out;
  for (const spec of LINKED_FILE_SPECS) {
    const files = filesBelow(join(skillDir, spec.dir), spec.recursive)
      .filter((rel) => spec.exts === "any" || spec.exts.some((ext) => rel.endsWith(ext)))
      .map((rel) => `${spec.dir}/${rel}`);
    if (files.length > 0) out[spec.dir] = files;
  }
  return out;
}

/** Upstream's `_SKILL_FILE_EXTS`: files outside the support folders that are still worth naming. */
const SOURCE_EXTS = new Set([".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"]);

/** Upstream's `_available_skill_files`: every file but SKILL.md, by support folder, then "other". */
function availableFiles(skillDir: string): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const rel of filesBelow(skillDir, true)) {
    if (rel === "SKILL.md") continue;
    const top = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : undefined;
    const group =
      top && (SKILL_SUPPORT_DIRS as readonly string[]).includes(top)
        ? top
        : SOURCE_EXTS.has(extname(rel))
          ? "other"
          : undefined;
    if (group) (groups[group] ??= []).push(rel);
  }
  const ordered: Record<string, string[]> = {};
  for (const key of [...SKILL_SUPPORT_DIRS, "other"]) if (groups[key]) ordered[key] = groups[key];
  return ordered;
}

/** Larger files are refused rather than pushed whole into the conversation (upstream has no limit). */
const MAX_FILE_BYTES = 1_000_000;

export type SkillFileView =
  | { readonly ok: true; readonly payload: Readonly<Record<string, unknown>> }
  | ({ readonly ok: false } & SkillFailure);

/**
 * Upstream's `_serve_skill_file`: one file of a skill, by a path inside its folder. Traversal and symlinks out of the
 * folder are refused; a missing file lists what is there; a binary file is described, not dumped. Text is scanned
 * like SKILL.md itself, since it reaches the model the same way.
 */
export function readSkillFile(
  skillDir: string,
  filePath: string,
  label: string,
  readBlock: ReadBlockOptions,
): SkillFileView {
  const hint = { hint: "Use a relative path within the skill directory" };
  if (filePath.split(/[\\/]/).includes(".."))
    return { ok: false, error: "Path traversal ('..') is not allowed.", extra: hint };
  const target = join(skillDir, filePath);
  const inside = relative(realpathOr(skillDir), realpathOr(target));
  if (inside.startsWith(`..${sep}`) || inside === ".." || filePath.startsWith("/") || filePath.startsWith("\\")) {
    return { ok: false, error: `Path '${filePath}' is outside the skill directory.`, extra: hint };
  }
  // read_file's read-deny holds here too: a skill folder is no way round it to a `.env` (or a link to a credential store).
  const denied = readBlockedError(target, readBlock);
  if (denied) return { ok: false, error: denied };
  const stat = statOr(target);
  if (!stat?.isFile()) {
    return {
      ok: false,
      error: `File '${filePath}' not found in skill '${label}'.`,
      extra: { available_files: availableFiles(skillDir), hint: "Use one of the available file paths listed above" },
    };
  }
  if (stat.size > MAX_FILE_BYTES) {
    return {
      ok: false,
      error: `File '${filePath}' in skill '${label}' is too large to view (${stat.size} bytes). Read the part you need with read_file.`,
    };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(target);
  } catch (error) {
    return { ok: false, error: `Failed to read '${filePath}': ${(error as Error).message}` };
  }
  const content = decodeText(bytes);
  if (content === undefined) {
    return {
      ok: true,
      payload: {
        success: true,
        name: label,
        file: filePath,
        is_binary: true,
        content: `[Binary file: ${basename(target)}, size: ${stat.size} bytes]`,
      },
    };
  }
  const blocked = threatFailure(content, target);
  if (blocked) return { ok: false, ...blocked };
  return { ok: true, payload: { success: true, name: label, file: filePath, content, file_type: extname(target) } };
}

/** UTF-8 text (one leading BOM dropped), or undefined for binary data (a NUL byte or invalid UTF-8). */
function decodeText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.startsWith("\ufeff") ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}

/** Files below `dir` as `/`-separated relative paths, sorted; dot-folders skipped; symlinked files and folders followed. */
function filesBelow(dir: string, recursive: boolean, depth = 0): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const linked = entry.isSymbolicLink() ? statOr(path) : undefined;
    if (entry.isFile() || linked?.isFile()) out.push(entry.name);
    else if (recursive && depth < 8 && !entry.name.startsWith(".") && (entry.isDirectory() || linked?.isDirectory())) {
      out.push(...filesBelow(path, true, depth + 1).map((rel) => `${entry.name}/${rel}`));
    }
  }
  return out.sort();
}

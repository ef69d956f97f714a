import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { realpathOr, statOr } from "../context/fs-probe.js";
import { type Frontmatter, type ParsedSkillFile, parseSkillFile } from "./skill-frontmatter.js";
import type { SkillRoot, SkillTier } from "./skill-roots.js";

/** Upstream's EXCLUDED_SKILL_DIRS (the `_org` mirror, a hub feature this agent does not sync, is skipped too). */
const EXCLUDED_DIRS = new Set([
  ".git",
  ".github",
  ".hub",
  ".archive",
  ".venv",
  "venv",
  "node_modules",
  "site-packages",
  "__pycache__",
  ".tox",
  ".nox",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  "_org",
]);

/** Upstream's SKILL_SUPPORT_DIRS: inside a skill they hold its files, never further skills. */
export const SKILL_SUPPORT_DIRS = ["references", "templates", "assets", "scripts"] as const;

// Bounds that keep discovery cheap even when external_dirs points somewhere huge (a home folder, a monorepo).
const MAX_DEPTH = 8;
const MAX_DIRS_PER_ROOT = 5_000;
/** Frontmatter sits at the top: this much of a SKILL.md is read to list it (the whole file only if the block runs on). */
const HEAD_BYTES = 8_192;

/** A SKILL.md found on disk, with its frontmatter read (not yet filtered or deduplicated). */
export interface FoundSkill {
  readonly root: string;
  readonly tier: SkillTier;
  readonly skillMd: string;
  readonly dir: string;
  /** Frontmatter `name`, else the folder's name (upstream's MAX_NAME_LENGTH: 64 characters). */
  readonly name: string;
  readonly frontmatter: Frontmatter;
  /** The body as far as it was read (enough for a description fallback). */
  readonly bodyHead: string;
}

export interface FoundSkills {
  readonly skills: readonly FoundSkill[];
  /** `description` of each category's DESCRIPTION.md, by category path ("general" at a root); first root wins. */
  readonly categoryDescriptions: Readonly<Record<string, string>>;
  /** The DESCRIPTION.md each of those came from. */
  readonly categoryDescriptionFiles: Readonly<Record<string, string>>;
}

const MAX_NAME_LENGTH = 64;

/** Every SKILL.md under the roots, in precedence order and, within a root, in path order (upstream's sorted walk). */
export function findSkills(roots: readonly SkillRoot[]): FoundSkills {
  const skills: FoundSkill[] = [];
  const categoryDescriptions: Record<string, string> = {};
  const categoryDescriptionFiles: Record<string, string> = {};
  for (const root of roots) {
    const files = walkRoot(root.dir);
    for (const skillMd of files.skillFiles) {
      const parsed = parsedHead(skillMd);
      if (parsed === undefined) continue;
      const dir = dirname(skillMd);
      const named = parsed.frontmatter.name;
      const name = (named === undefined || named === null || named === "" ? basename(dir) : String(named)).slice(
        0,
        MAX_NAME_LENGTH,
      );
      skills.push({
        root: root.dir,
        tier: root.tier,
        skillMd,
        dir,
        name,
        frontmatter: parsed.frontmatter,
        bodyHead: parsed.body,
      });
    }
    for (const file of files.descriptionFiles) {
      const description = parsedHead(file)?.frontmatter.description;
      if (!description) continue;
      const parts = relative(root.dir, file).split(sep);
      const category = parts.length > 1 ? parts.slice(0, -1).join("/") : "general";
      if (category in categoryDescriptions) continue;
      categoryDescriptions[category] = String(description)
        .trim()
        .replace(/^['"]+|['"]+$/g, "");
      categoryDescriptionFiles[category] = file;
    }
  }
  return { skills, categoryDescriptions, categoryDescriptionFiles };
}

/** Path parts of a skill's SKILL.md below its root (`["devops", "deploy", "SKILL.md"]`). */
export function partsBelowRoot(skill: Pick<FoundSkill, "root" | "skillMd">): string[] {
  return relative(skill.root, skill.skillMd).split(sep);
}

/**
 * Upstream's `iter_skill_index_files`: a walk that follows symlinks (a skill linked in from a checkout is normal),
 * skips caches, VCS and dependency folders, and does not look for skills inside a skill's support folders.
 * Symlink loops are cut by remembering real paths.
 */
function walkRoot(rootDir: string): { skillFiles: string[]; descriptionFiles: string[] } {
  const skillFiles: string[] = [];
  const descriptionFiles: string[] = [];
  const visited = new Set<string>();
  const stack: Array<{ dir: string; depth: number }> = [{ dir: rootDir, depth: 0 }];
  while (stack.length > 0 && visited.size < MAX_DIRS_PER_ROOT) {
    const { dir, depth } = stack.pop()!;
    const real = realpathOr(dir);
    if (visited.has(real)) continue;
    visited.add(real);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const names = new Set(entries.map((e) => e.name));
    const isSkill = names.has("SKILL.md");
    if (isSkill) skillFiles.push(join(dir, "SKILL.md"));
    if (names.has("DESCRIPTION.md")) descriptionFiles.push(join(dir, "DESCRIPTION.md"));
    if (depth >= MAX_DEPTH) continue;
    for (const entry of entries) {
      if (EXCLUDED_DIRS.has(entry.name) || (isSkill && (SKILL_SUPPORT_DIRS as readonly string[]).includes(entry.name)))
        continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory() || (entry.isSymbolicLink() && statOr(path)?.isDirectory() === true))
        stack.push({ dir: path, depth: depth + 1 });
    }
  }
  // Python's sorted() on path strings: code-point order, JavaScript's default sort.
  return { skillFiles: skillFiles.sort(), descriptionFiles: descriptionFiles.sort() };
}

/**
 * Parsed heads by path, valid while the file's mtime and size stay the same. YAML parsing is most of discovery's
 * cost (about 0.2 ms a skill), and every session/new and skill_view walks the same files: like upstream's skills
 * snapshot, only changed files are parsed again.
 */
const HEAD_CACHE = new Map<
  string,
  { readonly mtimeMs: number; readonly size: number; readonly parsed: ParsedSkillFile }
>();
const HEAD_CACHE_LIMIT = 10_000;

function parsedHead(path: string): ParsedSkillFile | undefined {
  const stat = statOr(path);
  if (!stat?.isFile()) return undefined;
  const cached = HEAD_CACHE.get(path);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.parsed;
  const head = readHead(path);
  if (head === undefined) return undefined;
  const parsed = parseSkillFile(head);
  if (HEAD_CACHE.size >= HEAD_CACHE_LIMIT) HEAD_CACHE.clear();
  HEAD_CACHE.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, parsed });
  return parsed;
}

/** The first HEAD_BYTES of a file as UTF-8 (bad bytes replaced, as upstream's errors="replace"); the whole file when its frontmatter runs on. */
function readHead(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const head = buffer.subarray(0, read).toString("utf8");
    if (read < HEAD_BYTES || parseSkillFile(head).closed) return head;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A skill file's whole text: UTF-8, bad bytes replaced, one leading BOM dropped (upstream's utf-8-sig `_read_skill_text`). */
export function readSkillText(path: string): string {
  const text = readFileSync(path, "utf8");
  return text.startsWith("\ufeff") ? text.slice(1) : text;
}

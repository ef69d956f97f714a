import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { activeProfileName } from "../../config/hermes-profiles.js";
import { isUnder, realPath } from "../../security/real-path.js";
import { findSkills } from "../../skills/skill-files.js";
import { threatFailure } from "../../skills/skill-loader.js";
import type { SkillRoots } from "../../skills/skill-roots.js";
import { approveEdits } from "../safety/edit-approval.js";
import type { FileEdit, ToolContext } from "../tool.js";

/** A skill found on disk by its folder name (upstream's `_find_skill`). */
export interface ManagedSkill {
  readonly dir: string;
  /** The skills root it lives in (HERMES_HOME/skills, a trusted project's, an external dir). */
  readonly root: string;
}

/** The first skill whose folder is `name`, in precedence order across every root (upstream matches the folder only). */
export function findManagedSkill(name: string, roots: SkillRoots): ManagedSkill | undefined {
  const match = findSkills(roots.roots).skills.find((skill) => basename(skill.dir) === name);
  return match ? { dir: match.dir, root: match.root } : undefined;
}

export function skillNotFound(name: string, home: string, suffix = ""): string {
  return `Skill '${name}' not found in active profile '${activeProfileName(home)}'. Use skills_list() to see available skills.${suffix}`;
}

/**
 * `rel` below the skill's folder (or the skills root, for a new skill), refused when it would leave it: through `..` (checked by the caller) or through a
 * symlink on the way (a `references` link to ~/.ssh must not become a write there).
 */
export function pathInSkill(skillDir: string, rel: string): { path: string } | { error: string } {
  const path = join(skillDir, rel);
  const real = realPath(path);
  if (!isUnder(real, realPath(skillDir)))
    return { error: `Path '${rel}' resolves outside the skill directory (${real}); refusing to follow it.` };
  if (existsSync(path) && lstatSync(path).isSymbolicLink())
    return { error: `Path '${rel}' is a symlink; skill files must be regular files inside the skill directory.` };
  return { path };
}

/** A file's text, or null when there is none (a new file). */
export function textOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * The one door every skill_manage change goes through, in this order, so that a refused change leaves no file:
 * 1. the threat scanner (strict scope, as skill_view reads the file back): a flagged text is refused with the
 *    pattern and the line, and nothing is asked or written;
 * 2. the user, with the diff (approveEdits: asked in the default mode, refused in read-only, YOLO writes without
 *    asking), since a skill is instructions every later session follows;
 * 3. the disk: each file written whole through a temporary file and a rename, or removed.
 * Returns undefined when the change was made, else the error for the model.
 */
export async function commitSkillChanges(ctx: ToolContext, changes: readonly FileEdit[]): Promise<string | undefined> {
  for (const change of changes) {
    if (change.newText === null) continue;
    const blocked = threatFailure(change.newText, change.path);
    if (blocked) {
      const where = (blocked.findings ?? []).map((f) => `${f.id} at line ${f.line}`).join(", ");
      return `Security scan blocked this skill (${where} in ${change.path}): ${blocked.error} Nothing was written.`;
    }
  }
  // Always through the edit approval, as write_file is: skills sit outside the workspace and load in every future
  // session, so `approvals.mode: off` (which concerns commands) does not waive it; the session's mode (yolo) may.
  const refusal = await approveEdits(ctx, changes);
  if (refusal) return refusal;
  for (const change of changes) {
    if (change.newText === null) unlinkSync(change.path);
    else writeAtomically(change.path, change.newText);
  }
  return undefined;
}

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.tmp.${process.pid}.${Date.now()}`);
  try {
    writeFileSync(temporary, text, { encoding: "utf8", flag: "wx" });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Every regular file below a skill's folder, as deletions to show the user (binary files named, not shown). */
export function deletionsOf(skillDir: string): FileEdit[] {
  const edits: FileEdit[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) edits.push({ path, oldText: shownFileText(path), newText: null });
    }
  };
  walk(skillDir);
  return edits;
}

const SHOWN_BYTES = 256 * 1024;

/** A file as the user is shown it before it goes: its text (the first 256 KB), or a note for a binary file. */
export function shownFileText(path: string): string {
  const bytes = readFileSync(path);
  if (bytes.includes(0)) return `[binary file, ${bytes.length} bytes]`;
  const text = bytes.subarray(0, SHOWN_BYTES).toString("utf8");
  return bytes.length > SHOWN_BYTES ? `${text}\n[… ${bytes.length - SHOWN_BYTES} more bytes]` : text;
}

/**
 * Upstream's last-line guard before a recursive delete: the folder must be strictly inside its skills root, not
 * the root itself, and not reached through a symlink (the delete would follow it out of the skills tree).
 */
export function deleteTargetProblem(skill: ManagedSkill): string | undefined {
  if (lstatSync(skill.dir).isSymbolicLink())
    return `Refusing to delete '${skill.dir}': the skill directory is a symlink/junction. Remove the link target manually if intended.`;
  const resolved = realPath(skill.dir);
  const root = realPath(skill.root);
  if (resolved === root)
    return `Refusing to delete '${skill.dir}': resolves to the skills root itself, which would remove every installed skill.`;
  if (!isUnder(resolved, root))
    return `Refusing to delete '${skill.dir}': path does not resolve inside any known skills root.`;
  return undefined;
}

/** Removes what is left of a deleted skill's folder, and its category folder when that is now empty. */
export function removeSkillDir(skill: ManagedSkill): void {
  rmSync(skill.dir, { recursive: true, force: true });
  removeIfEmpty(dirname(skill.dir), skill.root);
}

/** Removes `dir` when it is empty and not `keep` (a skills root, a skill's own folder). */
export function removeIfEmpty(dir: string, keep: string): void {
  if (dir === keep || !isUnder(dir, keep)) return;
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Already gone, or not ours to remove: nothing to tidy.
  }
}

/** The supporting files a skill has (for remove_file's "available_files"). */
export function supportingFiles(skillDir: string, subdirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(relative(skillDir, path));
    }
  };
  for (const sub of subdirs) walk(join(skillDir, sub));
  return files.sort();
}

import { existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fuzzyReplace } from "../file/fuzzy-replace.js";
import type { FileEdit, ToolContext } from "../tool.js";
import {
  ALLOWED_SUBDIRS,
  categoryProblem,
  contentSizeProblem,
  filePathProblem,
  fileSizeProblem,
  frontmatterProblem,
  nameProblem,
  relativeSkillFile,
} from "./skill-manage-checks.js";
import {
  commitSkillChanges,
  deleteTargetProblem,
  deletionsOf,
  findManagedSkill,
  pathInSkill,
  removeIfEmpty,
  removeSkillDir,
  shownFileText,
  skillNotFound,
  supportingFiles,
  textOrNull,
} from "./skill-manage-store.js";
import type { SkillToolContext } from "./skill-tool-context.js";

/** What an action answers: upstream's JSON payload, and the files it changed (for the editor's diff). */
export interface ActionOutcome {
  readonly payload: Readonly<Record<string, unknown>>;
  readonly edits?: readonly FileEdit[];
}

const fail = (error: string, extra: Record<string, unknown> = {}): ActionOutcome => ({
  payload: { success: false, error, ...extra },
});

/** Where the agent's new skills go: HERMES_HOME/skills, whichever roots the session also reads. */
export async function createSkill(
  ctx: ToolContext,
  skills: SkillToolContext,
  name: string,
  content: string,
  category: string | undefined,
): Promise<ActionOutcome> {
  const problem =
    nameProblem(name) ?? categoryProblem(category) ?? frontmatterProblem(content) ?? contentSizeProblem(content);
  if (problem) return fail(problem);
  const existing = findManagedSkill(name, skills.roots);
  if (existing) return fail(`A skill named '${name}' already exists at ${existing.dir}.`);
  const folder = category?.trim();
  const dir = join(skills.roots.homeSkillsDir, ...(folder ? [folder] : []), name);
  // A category folder linked out of HERMES_HOME/skills must not carry the new skill with it.
  const target = pathInSkill(skills.roots.homeSkillsDir, relative(skills.roots.homeSkillsDir, join(dir, "SKILL.md")));
  if ("error" in target) return fail(target.error);
  const skillMd = target.path;
  const edits: FileEdit[] = [{ path: skillMd, oldText: null, newText: content }];
  const refused = await commitSkillChanges(ctx, edits);
  if (refused) return fail(refused);
  return {
    payload: {
      success: true,
      message: `Skill '${name}' created.`,
      path: relative(skills.roots.homeSkillsDir, dir),
      skill_md: skillMd,
      ...(folder ? { category: folder } : {}),
      hint: `To add reference files, templates, or scripts, use skill_manage(action='write_file', name='${name}', file_path='references/example.md', file_content='...')`,
    },
    edits,
  };
}

export async function editSkill(
  ctx: ToolContext,
  skills: SkillToolContext,
  name: string,
  content: string,
): Promise<ActionOutcome> {
  const problem = frontmatterProblem(content) ?? contentSizeProblem(content);
  if (problem) return fail(problem);
  const existing = findManagedSkill(name, skills.roots);
  if (!existing) return fail(skillNotFound(name, ctx.home));
  // Through pathInSkill as patch and write_file: a SKILL.md linked elsewhere would put its target's text in the diff.
  const target = pathInSkill(existing.dir, "SKILL.md");
  if ("error" in target) return fail(target.error);
  const edits: FileEdit[] = [{ path: target.path, oldText: textOrNull(target.path), newText: content }];
  const refused = await commitSkillChanges(ctx, edits);
  if (refused) return fail(refused);
  return { payload: { success: true, message: `Skill '${name}' updated (full rewrite).`, path: existing.dir }, edits };
}

export async function patchSkill(
  ctx: ToolContext,
  skills: SkillToolContext,
  args: { name: string; oldString: string; newString: string; filePath?: string; replaceAll: boolean },
): Promise<ActionOutcome> {
  const existing = findManagedSkill(args.name, skills.roots);
  if (!existing) return fail(skillNotFound(args.name, ctx.home));
  const filePath = args.filePath?.trim();
  const pathProblem = filePath ? filePathProblem(filePath) : undefined;
  if (pathProblem) return fail(pathProblem);
  const rel = filePath ? relativeSkillFile(filePath) : "SKILL.md";
  const target = pathInSkill(existing.dir, rel);
  if ("error" in target) return fail(target.error);
  const oldText = textOrNull(target.path);
  if (oldText === null) return fail(`File not found: ${rel}`);
  const label = filePath ? filePath : "SKILL.md";
  const replaced = fuzzyReplace(oldText, args.oldString, args.newString, { replaceAll: args.replaceAll, label });
  if (!replaced.ok)
    return fail(replaced.error, { file_preview: oldText.slice(0, 500) + (oldText.length > 500 ? "..." : "") });
  const sizeProblem = contentSizeProblem(replaced.text, label);
  if (sizeProblem) return fail(sizeProblem);
  if (rel === "SKILL.md") {
    const broken = frontmatterProblem(replaced.text);
    if (broken) return fail(`Patch would break SKILL.md structure: ${broken}`);
  }
  const edits: FileEdit[] = [{ path: target.path, oldText, newText: replaced.text }];
  const refused = await commitSkillChanges(ctx, edits);
  if (refused) return fail(refused);
  const count = replaced.count;
  return {
    payload: {
      success: true,
      message: `Patched ${label} in skill '${args.name}' (${count} replacement${count > 1 ? "s" : ""}).`,
    },
    edits,
  };
}

export async function deleteSkill(
  ctx: ToolContext,
  skills: SkillToolContext,
  name: string,
  absorbedInto: string | undefined,
): Promise<ActionOutcome> {
  const existing = findManagedSkill(name, skills.roots);
  if (!existing) return fail(skillNotFound(name, ctx.home));
  const umbrella = absorbedInto?.trim() ?? "";
  if (umbrella === name) return fail(`absorbed_into='${umbrella}' cannot equal the skill being deleted.`);
  if (umbrella && !findManagedSkill(umbrella, skills.roots))
    return fail(
      `absorbed_into='${umbrella}' does not exist. Create or patch the umbrella skill first, then retry the delete.`,
    );
  const unsafe = deleteTargetProblem(existing);
  if (unsafe) return fail(unsafe);
  const edits = deletionsOf(existing.dir);
  const refused = await commitSkillChanges(ctx, edits);
  if (refused) return fail(refused);
  removeSkillDir(existing);
  const absorbed = umbrella ? ` Content absorbed into '${umbrella}'.` : "";
  return { payload: { success: true, message: `Skill '${name}' deleted.${absorbed}` }, edits };
}

export async function writeSkillFile(
  ctx: ToolContext,
  skills: SkillToolContext,
  name: string,
  filePath: string,
  fileContent: string,
): Promise<ActionOutcome> {
  const problem =
    filePathProblem(filePath) ?? fileSizeProblem(fileContent) ?? contentSizeProblem(fileContent, filePath);
  if (problem) return fail(problem);
  const existing = findManagedSkill(name, skills.roots);
  if (!existing) return fail(skillNotFound(name, ctx.home, " Create it first with action='create'."));
  const rel = relativeSkillFile(filePath);
  // SKILL.md keeps its structure whichever action writes it.
  const broken = rel === "SKILL.md" ? frontmatterProblem(fileContent) : undefined;
  if (broken) return fail(broken);
  const target = pathInSkill(existing.dir, rel);
  if ("error" in target) return fail(target.error);
  const edits: FileEdit[] = [{ path: target.path, oldText: textOrNull(target.path), newText: fileContent }];
  const refused = await commitSkillChanges(ctx, edits);
  if (refused) return fail(refused);
  return {
    payload: { success: true, message: `File '${filePath}' written to skill '${name}'.`, path: target.path },
    edits,
  };
}

export async function removeSkillFile(
  ctx: ToolContext,
  skills: SkillToolContext,
  name: string,
  filePath: string,
): Promise<ActionOutcome> {
  const problem = filePathProblem(filePath);
  if (problem) return fail(problem);
  const rel = relativeSkillFile(filePath);
  if (rel === "SKILL.md") return fail("SKILL.md cannot be removed; use action='delete' to remove the whole skill.");
  const existing = findManagedSkill(name, skills.roots);
  if (!existing) return fail(skillNotFound(name, ctx.home));
  const target = pathInSkill(existing.dir, rel);
  if ("error" in target) return fail(target.error);
  if (!existsSync(target.path)) {
    const available = supportingFiles(existing.dir, ALLOWED_SUBDIRS);
    return fail(`File '${filePath}' not found in skill '${name}'.`, {
      available_files: available.length > 0 ? available : null,
    });
  }
  if (statSync(target.path).isDirectory())
    return fail(`'${filePath}' is a directory; give the path of a file inside it.`);
  const edits: FileEdit[] = [{ path: target.path, oldText: shownFileText(target.path), newText: null }];
  const refused = await commitSkillChanges(ctx, edits);
  if (refused) return fail(refused);
  removeIfEmpty(join(target.path, ".."), existing.dir);
  return { payload: { success: true, message: `File '${filePath}' removed from skill '${name}'.` }, edits };
}

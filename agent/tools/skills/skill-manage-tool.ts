import * as z from "zod/v4";
import { defineTool, type ToolArgs } from "../define-tool.js";
import { str } from "../describe-call.js";
import type { ToolContext, ToolResult } from "../tool.js";
import {
  type ActionOutcome,
  createSkill,
  deleteSkill,
  editSkill,
  patchSkill,
  removeSkillFile,
  writeSkillFile,
} from "./skill-manage-actions.js";
import { type SkillToolContext, skillJson, skillToolContext } from "./skill-tool-context.js";

const ACTIONS = ["create", "patch", "edit", "delete", "write_file", "remove_file"] as const;

const parameters = () =>
  z.object({
    action: z.enum(ACTIONS).describe("The action to perform."),
    name: z
      .string()
      .describe(
        "Skill name (lowercase, hyphens/underscores, max 64 chars). Must match an existing skill for patch/edit/delete/write_file/remove_file.",
      ),
    content: z
      .string()
      .optional()
      .describe(
        "Full SKILL.md content (YAML frontmatter + markdown body). Required for 'create' and 'edit'. For 'edit', read the skill first with skill_view() and provide the complete updated text.",
      ),
    old_string: z
      .string()
      .optional()
      .describe(
        "Text to find in the file (required for 'patch'). Must be unique unless replace_all=true. Include enough surrounding context to ensure uniqueness.",
      ),
    new_string: z
      .string()
      .optional()
      .describe("Replacement text (required for 'patch'). Can be empty string to delete the matched text."),
    replace_all: z
      .boolean()
      .optional()
      .describe("For 'patch': replace all occurrences instead of requiring a unique match (default: false)."),
    category: z
      .string()
      .optional()
      .describe(
        "Optional category/domain for organizing the skill (e.g., 'devops', 'data-science', 'mlops'). Creates a subdirectory grouping. Only used with 'create'.",
      ),
    file_path: z
      .string()
      .optional()
      .describe(
        "Path to a supporting file within the skill directory. For 'write_file'/'remove_file': required, must be under references/, templates/, scripts/, or assets/. For 'patch': optional, defaults to SKILL.md if omitted.",
      ),
    file_content: z.string().optional().describe("Content for the file. Required for 'write_file'."),
    absorbed_into: z
      .string()
      .optional()
      .describe(
        "For 'delete' only — declares intent: pass the umbrella skill name when this skill's content was merged into another (the target must already exist), or an empty string when the skill is truly stale and being pruned with no forwarding target.",
      ),
  });

type Args = ToolArgs<ReturnType<typeof parameters>>;

const TITLES: Readonly<Record<string, string>> = {
  create: "Create skill",
  patch: "Patch skill",
  edit: "Rewrite skill",
  delete: "Delete skill",
  write_file: "Write skill file",
  remove_file: "Remove skill file",
};

/**
 * Upstream's `skill_manage` (tools/skill_manager_tool.py): the agent's learning loop, creating and improving skills
 * under HERMES_HOME/skills with upstream's actions, checks, limits and JSON answers. Unlike upstream, every write is
 * threat-scanned before it reaches the disk (upstream scans afterwards, only with skills.guard_agent_created, and
 * rolls back) and the user approves it with the diff, as any edit (skill-manage-store.ts). Not carried over: the
 * curator (background review, pinning, usage telemetry) and the staged-write queue of `/skills approve`.
 */
export const skillManageTool = defineTool({
  name: "skill_manage",
  toolsets: ["skills"],
  kind: "edit",
  description:
    "Manage skills (create, update, delete). Skills are your procedural memory — reusable approaches for recurring task types. " +
    "New skills go to HERMES_HOME/skills/; existing skills can be modified wherever they live.\n\n" +
    "Actions: create (full SKILL.md + optional category), patch (old_string/new_string — preferred for fixes), " +
    "edit (full SKILL.md rewrite — major overhauls only), delete, write_file, remove_file.\n\n" +
    "On delete, pass `absorbed_into=<umbrella>` when you're merging this skill's content into another one, or " +
    '`absorbed_into=""` when you\'re pruning it with no forwarding target. The target you name in `absorbed_into` ' +
    "must already exist — create/patch the umbrella first, then delete.\n\n" +
    "Create when: complex task succeeded (5+ calls), errors overcome, user-corrected approach worked, non-trivial " +
    "workflow discovered, or user asks you to remember a procedure.\n" +
    "Update when: instructions stale/wrong, OS-specific failures, missing steps or pitfalls found during use. " +
    "If you used a skill and hit issues not covered by it, patch it immediately.\n\n" +
    "After difficult/iterative tasks, offer to save as a skill. Skip for simple one-offs. Confirm with user before creating/deleting.\n\n" +
    "Good skills: trigger conditions, numbered steps with exact commands, pitfalls section, verification steps. " +
    "Use skill_view() to see format examples.",
  parameters,
  describe: (args) => {
    const file = str(args?.file_path).trim();
    const title = TITLES[str(args?.action)] ?? "Manage skill";
    return { title: `${title} ${str(args?.name).trim() || "?"}${file ? `/${file}` : ""}`, locations: [] };
  },
  run: (args, ctx) => skillManage(args, ctx),
});

async function skillManage(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const skills = skillToolContext(ctx);
  if (!("settings" in skills)) return skills;
  const outcome = await dispatch(args, ctx, skills);
  const ok = outcome.payload.success === true;
  const result = skillJson(outcome.payload, !ok);
  return outcome.edits && ok ? { ...result, edits: outcome.edits } : result;
}

function dispatch(args: Args, ctx: ToolContext, skills: SkillToolContext): Promise<ActionOutcome> | ActionOutcome {
  const failure = (error: string): ActionOutcome => ({ payload: { success: false, error } });
  const name = args.name.trim();
  switch (args.action) {
    case "create":
      if (!args.content)
        return failure("content is required for 'create'. Provide the full SKILL.md text (frontmatter + body).");
      return createSkill(ctx, skills, name, args.content, args.category ?? undefined);
    case "edit":
      if (!args.content) return failure("content is required for 'edit'. Provide the full updated SKILL.md text.");
      return editSkill(ctx, skills, name, args.content);
    case "patch":
      if (!args.old_string) return failure("old_string is required for 'patch'. Provide the text to find.");
      if (args.new_string === undefined || args.new_string === null)
        return failure("new_string is required for 'patch'. Use empty string to delete matched text.");
      return patchSkill(ctx, skills, {
        name,
        oldString: args.old_string,
        newString: args.new_string,
        ...(args.file_path ? { filePath: args.file_path } : {}),
        replaceAll: args.replace_all ?? false,
      });
    case "delete":
      return deleteSkill(ctx, skills, name, args.absorbed_into ?? undefined);
    case "write_file":
      if (!args.file_path) return failure("file_path is required for 'write_file'. Example: 'references/api-guide.md'");
      if (args.file_content === undefined || args.file_content === null)
        return failure("file_content is required for 'write_file'.");
      return writeSkillFile(ctx, skills, name, args.file_path, args.file_content);
    case "remove_file":
      if (!args.file_path) return failure("file_path is required for 'remove_file'.");
      return removeSkillFile(ctx, skills, name, args.file_path);
  }
}

import { homedir } from "node:os";
import * as z from "zod/v4";
import { tagList } from "../../skills/skill-frontmatter.js";
import { loadSkill } from "../../skills/skill-loader.js";
import { renderSkillContent } from "../../skills/skill-message.js";
import { linkedFiles, readSkillFile } from "../../skills/skill-support-files.js";
import { defineTool } from "../define-tool.js";
import { str } from "../describe-call.js";
import { skillJson, skillToolContext } from "./skill-tool-context.js";

/**
 * Upstream's `skill_view` (tools/skills_tool.py): tier two and three of progressive disclosure. With a name, the whole
 * SKILL.md plus the list of its linked files; with `file_path` too, one of those files. Everything returned has
 * passed the threat scanner (strict scope); a flagged file is refused with upstream's `first_threat_message` text.
 *
 * Not carried over: upstream's readiness checks (prompting for missing environment variables, credential files,
 * package installs), plugin skills (`plugin:skill`) and the org-mirror provenance header.
 */
export const skillViewTool = defineTool({
  name: "skill_view",
  toolsets: ["skills"],
  kind: "read",
  pathArguments: { paths: ["file_path"] },
  description:
    "Skills allow for loading information about specific tasks and workflows, as well as scripts and templates. Load a skill's full content or access its linked files (references, templates, scripts). First call returns SKILL.md content plus a 'linked_files' dict showing available references/templates/scripts. To access those, call again with file_path parameter.",
  parameters: () =>
    z.object({
      name: z.string().describe("The skill name (use skills_list to see available skills)."),
      file_path: z
        .string()
        .optional()
        .describe(
          "OPTIONAL: Path to a linked file within the skill (e.g., 'references/api.md', 'templates/config.yaml', 'scripts/validate.py'). Omit to get the main SKILL.md content.",
        ),
    }),
  // Upstream's ACP title: `skill view (name[/file])`; a skill's files are read, so the kind is `read`.
  describe: (args) => {
    const file = str(args?.file_path).trim();
    return { title: `skill view (${str(args?.name).trim() || "?"}${file ? `/${file}` : ""})`, locations: [] };
  },
  async run(args, ctx) {
    const context = skillToolContext(ctx);
    if (!("settings" in context)) return context;
    const name = args.name;
    const loaded = loadSkill(name, context.roots, context.settings);
    if (!loaded.ok) return skillJson({ success: false, error: loaded.error, ...loaded.extra }, true);
    const { skill } = loaded;
    const filePath = typeof args.file_path === "string" ? args.file_path.trim() : "";
    if (filePath && skill.dir) {
      const file = readSkillFile(skill.dir, filePath, name, { hermesHome: ctx.home, home: homedir() });
      return file.ok ? skillJson(file.payload) : skillJson({ success: false, error: file.error, ...file.extra }, true);
    }
    const linked = linkedFiles(skill.dir);
    const hasLinked = Object.keys(linked).length > 0;
    const metadata = skill.frontmatter.metadata;
    return skillJson({
      success: true,
      name: skill.name,
      description: skill.frontmatter.description ?? "",
      tags: tagList(skill.frontmatter, "tags"),
      related_skills: tagList(skill.frontmatter, "related_skills"),
      content: renderSkillContent(skill.content, skill.dir, ctx.state.sessionId, context.settings),
      path: skill.relPath,
      skill_dir: skill.dir ?? null,
      linked_files: hasLinked ? linked : null,
      usage_hint: hasLinked
        ? "To view linked files, call skill_view(name, file_path) where file_path is e.g. 'references/api.md' or 'assets/config.yaml'"
        : null,
      ...(skill.frontmatter.compatibility ? { compatibility: skill.frontmatter.compatibility } : {}),
      ...(metadata && typeof metadata === "object" && !Array.isArray(metadata) ? { metadata } : {}),
    });
  },
});

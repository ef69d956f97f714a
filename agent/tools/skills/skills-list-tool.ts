import * as z from "zod/v4";
import { discoverSkills } from "../../skills/skill-catalog.js";
import { defineTool } from "../define-tool.js";
import { str } from "../describe-call.js";
import { skillJson, skillToolContext } from "./skill-tool-context.js";

/**
 * Upstream's `skills_list` (tools/skills_tool.py): tier one of progressive disclosure, names and descriptions only,
 * sorted by category then name. The same skills the session offers elsewhere: platform, environment and
 * `skills.disabled` filters applied, and skills the threat scanner flagged left out.
 */
export const skillsListTool = defineTool({
  name: "skills_list",
  toolsets: ["skills"],
  kind: "read",
  description: "List available skills (name + description). Use skill_view(name) to load full content.",
  parameters: () =>
    z.object({
      category: z.string().optional().describe("Optional category filter to narrow results"),
    }),
  describe: (args) => {
    const category = str(args?.category).trim();
    return { title: category ? `skills list (${category})` : "skills list", locations: [] };
  },
  async run(args, ctx) {
    const context = skillToolContext(ctx);
    if (!("settings" in context)) return context;
    const catalog = discoverSkills({ home: ctx.home, cwd: ctx.workspace.root, settings: context.settings });
    if (catalog.skills.length === 0) {
      return skillJson({ success: true, skills: [], categories: [], message: "No skills found in skills/ directory." });
    }
    const category = typeof args.category === "string" && args.category ? args.category : undefined;
    const skills = catalog.skills
      .filter((s) => !category || s.category === category)
      .map((s) => ({ name: s.name, description: s.description, category: s.category ?? null }))
      .sort((a, b) => compare(a.category ?? "", b.category ?? "") || compare(a.name, b.name));
    const categories = [...new Set(skills.map((s) => s.category).filter((c): c is string => Boolean(c)))].sort();
    return skillJson({
      success: true,
      skills,
      categories,
      count: skills.length,
      hint: "Use skill_view(name) to see full content, tags, and linked files",
    });
  },
});

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

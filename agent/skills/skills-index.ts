import { offeredWith } from "./skill-activation.js";
import type { SkillCatalog } from "./skill-catalog.js";

const SKILL_TOOLS = ["skills_list", "skill_view", "skill_manage"];

/**
 * Upstream's skills index (agent/prompt_builder.py `_render_skills_index`), item 9 of the stable layer: every offered
 * skill as `- name: description` under its category, with upstream's instructions around it. Empty when the session
 * has no skill tools or no skill is offered.
 *
 * Built from the catalog discovered once at session start, so it is byte-identical on every turn (providers' prompt
 * caches hit). Conditional activation is applied here: a skill whose `requires_toolsets`/`requires_tools` are
 * missing, or whose `fallback_for_*` primary is present, is left out.
 */
export function renderSkillsIndex(
  catalog: SkillCatalog,
  toolNames: ReadonlySet<string>,
  toolsets: ReadonlySet<string>,
): string {
  if (!SKILL_TOOLS.some((t) => toolNames.has(t))) return "";
  const byCategory = new Map<string, Array<{ name: string; description: string }>>();
  for (const skill of catalog.skills) {
    if (!offeredWith(skill.conditions, toolNames, toolsets)) continue;
    const description = `${skill.tier === "project" ? "[project] " : ""}${skill.indexDescription}`.trim();
    const entries = byCategory.get(skill.indexCategory) ?? [];
    entries.push({ name: skill.name, description });
    byCategory.set(skill.indexCategory, entries);
  }
  if (byCategory.size === 0) return "";

  const lines: string[] = [];
  for (const category of [...byCategory.keys()].sort()) {
    const about = catalog.categoryDescriptions[category];
    lines.push(about ? `  ${category}: ${about}` : `  ${category}:`);
    const seen = new Set<string>();
    // Python's sorted() is stable: among equal names the first discovered stays first, and only it is listed.
    for (const { name, description } of byCategory
      .get(category)!
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (seen.has(name)) continue;
      seen.add(name);
      lines.push(description ? `    - ${name}: ${description}` : `    - ${name}`);
    }
  }

  // Upstream names web_search only when the session has it (a dangling tool name invites calls that fail).
  const basicTools = toolNames.has("web_search") ? "web_search or terminal" : "terminal";
  // Likewise upstream's "fix it with skill_manage(action='patch')": only said when skill_manage exists.
  const fixLine = toolNames.has("skill_manage")
    ? "If a skill has issues, fix it with skill_manage(action='patch').\n"
    : "";
  return (
    "## Skills\n" +
    "Before replying, scan the skills below. If a skill matches or is even partially relevant to your " +
    "task, you MUST load it with skill_view(name) and follow its instructions. Err on the side of " +
    "loading — it is always better to have context you don't need than to miss critical steps, pitfalls, " +
    "or established workflows. Skills contain specialized knowledge — API endpoints, tool-specific " +
    "commands, and proven workflows that outperform general-purpose approaches. Load the skill " +
    `even if you think you could handle the task with basic tools like ${basicTools}. ` +
    "Skills also encode the user's preferred approach, conventions, and quality standards for tasks like " +
    "code review, planning, and testing — load them even for tasks you already know how to do, because " +
    "the skill defines how it should be done here.\n" +
    fixLine +
    "After difficult/iterative tasks, offer to save as a skill. If a skill you loaded was missing steps, " +
    "had wrong commands, or needed pitfalls you discovered, update it before finishing.\n" +
    "\n" +
    "<available_skills>\n" +
    lines.join("\n") +
    "\n" +
    "</available_skills>\n\n" +
    "Only proceed without loading a skill if genuinely none are relevant to the task."
  );
}

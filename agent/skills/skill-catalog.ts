import { basename } from "node:path";
import type { SkillSettings } from "../config/skill-settings.js";
import { scanWhole, type ThreatFinding } from "../security/threat-scanner.js";
import { conditionsOf, matchesEnvironment, matchesPlatform, type SkillConditions } from "./skill-activation.js";
import { type FoundSkill, type FoundSkills, findSkills, partsBelowRoot, readSkillText } from "./skill-files.js";
import { indexDescription, listDescription } from "./skill-frontmatter.js";
import { resolveSkillRoots, type SkillRoots, type SkillTier } from "./skill-roots.js";

/** The platform name this agent runs under for `skills.platform_disabled` (upstream's ACP sessions use "acp"). */
export const SKILLS_PLATFORM = "acp";

/** A skill offered to the model and the user. */
export interface SkillEntry {
  readonly name: string;
  /** skills_list's description (the field, else the first body line), up to 1,024 characters. */
  readonly description: string;
  /** The system prompt index's description: at most 60 characters. */
  readonly indexDescription: string;
  /** skills_list's category: the first folder of `<category>/<name>/SKILL.md`; none for a top-level skill. */
  readonly category: string | undefined;
  /** The index's category, as upstream computes it ("general", the folder path above the skill, or its own folder). */
  readonly indexCategory: string;
  readonly tier: SkillTier;
  readonly dir: string;
  readonly skillMd: string;
  readonly conditions: SkillConditions;
}

/**
 * A skill kept out of the session because the threat scanner flagged what would reach the model; or, with
 * `scanned: "category"`, a category whose DESCRIPTION.md description was kept out of the skills index (`name` is
 * the category, `skillMd` that DESCRIPTION.md; its skills are judged on their own).
 */
export interface BlockedSkill {
  readonly name: string;
  readonly skillMd: string;
  /** What was scanned: the name and description (lines count from the name), the whole SKILL.md (project skills), or a category's description. */
  readonly scanned: "description" | "file" | "category";
  readonly findings: readonly ThreatFinding[];
}

/** What the scanner found in a blocked skill, in words: `prompt_injection at line 7` or `… in its name or description`. */
export function blockedSkillFindings(skill: BlockedSkill): string {
  if (skill.scanned === "file") return skill.findings.map((t) => `${t.id} at line ${t.line}`).join(", ");
  const ids = skill.findings.map((t) => t.id).join(", ");
  return skill.scanned === "category" ? `${ids} in its category description` : `${ids} in its name or description`;
}

export interface SkillCatalog {
  /** Offered skills, one per name, in precedence order (project, home, external; path order within each). */
  readonly skills: readonly SkillEntry[];
  readonly categoryDescriptions: Readonly<Record<string, string>>;
  readonly blocked: readonly BlockedSkill[];
  readonly roots: SkillRoots;
}

export interface CatalogInput {
  readonly home: string;
  readonly cwd: string;
  readonly settings: SkillSettings;
}

/**
 * The skills a session offers. Reads folder listings and the head of each SKILL.md (its frontmatter), so it is
 * cheap enough for session/new. Offer-time filters as upstream: the OS (`platforms:`), the runtime environment,
 * `skills.disabled` and `skills.platform_disabled.acp`; the first skill of a name wins.
 *
 * What reaches the model from here (name and description, in the prompt's index, in skills_list and in the
 * slash-command list) is scanned with the threat scanner's strict scope; a project skill, which comes from a
 * repository rather than from the user, has its whole SKILL.md scanned (upstream quarantines dangerous project
 * skills the same way). A flagged skill is left out and reported in `blocked`.
 */
export function discoverSkills(input: CatalogInput): SkillCatalog {
  const roots = resolveSkillRoots(input.home, input.cwd, input.settings);
  const found = findSkills(roots.roots);
  const disabled = new Set([...input.settings.disabled, ...(input.settings.platformDisabled[SKILLS_PLATFORM] ?? [])]);
  const skills: SkillEntry[] = [];
  const blocked: BlockedSkill[] = [];
  const claimed = new Set<string>();
  for (const skill of found.skills) {
    if (claimed.has(skill.name)) continue;
    if (!matchesPlatform(skill.frontmatter) || !matchesEnvironment(skill.frontmatter)) continue;
    if (disabled.has(skill.name) || disabled.has(folderName(skill))) continue;
    claimed.add(skill.name);
    const entry = toEntry(skill);
    const findings = threatsIn(skill, entry);
    if (findings === undefined) continue;
    if (findings.length > 0)
      blocked.push({
        name: skill.name,
        skillMd: skill.skillMd,
        scanned: skill.tier === "project" ? "file" : "description",
        findings,
      });
    else skills.push(entry);
  }
  return { skills, categoryDescriptions: scannedCategoryDescriptions(found, blocked), blocked, roots };
}

/**
 * Category descriptions go into the system prompt's skills index next to the skills' own, so they get the same
 * strict scan as a skill's description; a flagged one is left out (the category is listed bare) and reported.
 */
function scannedCategoryDescriptions(found: FoundSkills, blocked: BlockedSkill[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [category, description] of Object.entries(found.categoryDescriptions)) {
    const findings = scanWhole(description, "strict");
    if (findings.length === 0) kept[category] = description;
    else
      blocked.push({
        name: category,
        skillMd: found.categoryDescriptionFiles[category] ?? category,
        scanned: "category",
        findings,
      });
  }
  return kept;
}

function toEntry(skill: FoundSkill): SkillEntry {
  const parts = partsBelowRoot(skill);
  return {
    name: skill.name,
    description: listDescription(skill.frontmatter, skill.bodyHead),
    indexDescription: indexDescription(skill.frontmatter),
    category: parts.length >= 3 ? parts[0] : undefined,
    // Upstream's `_build_snapshot_entry`: `<cat>/<name>/SKILL.md` → cat, deeper → the path above the skill, and a
    // top-level `<name>/SKILL.md` → its own folder name.
    indexCategory: parts.length < 2 ? "general" : parts.length > 2 ? parts.slice(0, -2).join("/") : parts[0]!,
    tier: skill.tier,
    dir: skill.dir,
    skillMd: skill.skillMd,
    conditions: conditionsOf(skill.frontmatter),
  };
}

/** What the scanner found, or undefined for a project skill that cannot be read (not offered: fail closed). */
function threatsIn(skill: FoundSkill, entry: SkillEntry): ThreatFinding[] | undefined {
  if (skill.tier !== "project") return scanWhole(`${entry.name}\n${entry.description}`, "strict");
  try {
    return scanWhole(readSkillText(skill.skillMd), "strict");
  } catch {
    return undefined;
  }
}

function folderName(skill: FoundSkill): string {
  return basename(skill.dir);
}

import { basename, dirname, join, relative, sep } from "node:path";
import type { SkillSettings } from "../config/skill-settings.js";
import { realpathOr, statOr } from "../context/fs-probe.js";
import { scanWhole, type ThreatFinding } from "../security/threat-scanner.js";
import { matchesPlatform } from "./skill-activation.js";
import { SKILLS_PLATFORM } from "./skill-catalog.js";
import { type FoundSkill, findSkills, readSkillText, SKILL_SUPPORT_DIRS } from "./skill-files.js";
import { type Frontmatter, parseSkillFile } from "./skill-frontmatter.js";
import type { SkillRoots } from "./skill-roots.js";

/** A skill read in full and cleared by the threat scanner. */
export interface LoadedSkill {
  /** Frontmatter `name`, else the folder's name. */
  readonly name: string;
  readonly frontmatter: Frontmatter;
  /** The whole SKILL.md (frontmatter included), as skill_view returns it. */
  readonly content: string;
  /** The skill's folder; undefined for a legacy single-file `<name>.md` skill. */
  readonly dir: string | undefined;
  readonly skillMd: string;
  /** SKILL.md's path below HERMES_HOME/skills, or below the folder above the skill for other roots. */
  readonly relPath: string;
}

/** Why a skill could not be given to the model, in upstream's words, with upstream's extra JSON fields. */
export interface SkillFailure {
  readonly error: string;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Set when the threat scanner refused the file: what it found, for the user. */
  readonly findings?: readonly ThreatFinding[];
}

export type SkillLoad = { readonly ok: true; readonly skill: LoadedSkill } | ({ readonly ok: false } & SkillFailure);

const LOOKUP_HINT = "Use a skill name or relative path within the skills directory.";

/**
 * Upstream's skill_view lookup (`_locate_skill`): `name` is a skill name, a folder name or a `category/name` path,
 * searched in every root. Several matches are refused rather than guessed, except that a trusted project skill wins
 * over same-named home and external ones. Platform, `skills.disabled` and the threat scanner (strict scope, whole
 * file) are checked before anything is returned.
 */
export function loadSkill(name: string, roots: SkillRoots, settings: SkillSettings): SkillLoad {
  const nameProblem = lookupProblem(name);
  if (nameProblem) return { ok: false, error: nameProblem, extra: { hint: LOOKUP_HINT } };
  const wanted = name.trim();
  // `plugin:skill` names are plugin skills upstream; with no plugins here, `category:skill` reads as `category/skill`.
  const asPath = wanted.includes(":") ? wanted.replace(":", "/") : undefined;
  if (asPath && lookupProblem(asPath))
    return { ok: false, error: lookupProblem(asPath)!, extra: { hint: LOOKUP_HINT } };
  if (roots.roots.length === 0)
    return { ok: false, error: "Skills directory does not exist yet. It will be created on first install." };

  const found = findSkills(roots.roots).skills;
  let candidates = candidatesFor(wanted, asPath, roots, found);
  if (candidates.length > 1 && candidates.some((c) => c.project)) candidates = candidates.filter((c) => c.project);
  if (candidates.length > 1) {
    return {
      ok: false,
      error: `Ambiguous skill name '${wanted}': ${candidates.length} skills match across your local skills dir and external_dirs. Refusing to guess — load one explicitly by its categorized path.`,
      extra: {
        matches: candidates.map((c) => c.skillMd),
        hint: "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), or rename one of the colliding skills so each name is unique.",
      },
    };
  }
  const match = candidates[0];
  if (!match) {
    const available = [...new Set(found.map((s) => s.name))].sort().slice(0, 20);
    return {
      ok: false,
      error: `Skill '${wanted}' not found.`,
      extra: { available_skills: available, hint: "Use skills_list to see all available skills" },
    };
  }
  return loadSkillFile(match, roots, settings, wanted);
}

/**
 * Reads one skill's SKILL.md (`dir` undefined for a legacy `<name>.md`) and checks it: the OS it supports,
 * `skills.disabled`, and the threat scanner on the whole file. `label` names it in errors.
 */
export function loadSkillFile(
  match: { readonly dir: string | undefined; readonly skillMd: string },
  roots: SkillRoots,
  settings: SkillSettings,
  label: string,
): SkillLoad {
  let content: string;
  try {
    content = readSkillText(match.skillMd);
  } catch (error) {
    return { ok: false, error: `Failed to read skill '${label}': ${(error as Error).message}` };
  }
  const { frontmatter } = parseSkillFile(content);
  if (!matchesPlatform(frontmatter))
    return {
      ok: false,
      error: `Skill '${label}' is not supported on this platform.`,
      extra: { readiness_status: "unsupported" },
    };
  const resolvedName = frontmatter.name
    ? String(frontmatter.name)
    : basename(match.dir ?? match.skillMd.replace(/\.md$/, ""));
  const disabled = [...settings.disabled, ...(settings.platformDisabled[SKILLS_PLATFORM] ?? [])];
  if (disabled.includes(resolvedName)) {
    // Upstream points at `hermes skills`; this agent has no such command, the setting is config.yaml's.
    return {
      ok: false,
      error: `Skill '${resolvedName}' is disabled. Enable it by removing it from skills.disabled in config.yaml, or inspect the files directly on disk.`,
    };
  }
  const blocked = threatFailure(content, match.skillMd);
  if (blocked) return { ok: false, ...blocked };
  const underHome = relative(roots.homeSkillsDir, match.skillMd);
  const relPath =
    !underHome.startsWith("..") && !underHome.startsWith(sep)
      ? underHome
      : relative(dirname(dirname(match.skillMd)), match.skillMd);
  return {
    ok: true,
    skill: { name: resolvedName, frontmatter, content, dir: match.dir, skillMd: match.skillMd, relPath },
  };
}

/**
 * The threat scanner's verdict on text about to reach the model (strict scope: skills are instructions the agent
 * follows, like memory): upstream's `first_threat_message`, with every finding and its line kept for the user.
 */
export function threatFailure(content: string, path: string): SkillFailure | undefined {
  const findings = scanWhole(content, "strict");
  const first = findings[0];
  if (!first) return undefined;
  const error = first.id.startsWith("invisible_unicode_")
    ? `Blocked: content contains invisible unicode character ${first.id.slice("invisible_unicode_".length)} (possible injection).`
    : `Blocked: content matches threat pattern '${first.id}'. Content is injected into the system prompt and must not contain injection or exfiltration payloads.`;
  return { error, extra: { path, findings: findings.map((f) => `${f.id} (line ${f.line})`) }, findings };
}

interface Candidate {
  readonly dir: string | undefined;
  readonly skillMd: string;
  readonly project: boolean;
}

function candidatesFor(
  name: string,
  asPath: string | undefined,
  roots: SkillRoots,
  found: readonly FoundSkill[],
): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const record = (dir: string | undefined, skillMd: string, project: boolean) => {
    const key = realpathOr(skillMd);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ dir, skillMd, project });
  };
  for (const root of roots.roots) {
    const project = root.tier === "project";
    for (const direct of [name, asPath]) {
      if (!direct) continue;
      const dir = join(root.dir, direct);
      if (!isSupportPath(root.dir, dir) && statOr(join(dir, "SKILL.md"))?.isFile())
        record(dir, join(dir, "SKILL.md"), project);
      // A legacy single-file skill: `<name>.md` at that path.
      else if (!isSupportPath(root.dir, `${dir}.md`) && statOr(`${dir}.md`)?.isFile())
        record(undefined, `${dir}.md`, project);
    }
  }
  // By folder name or frontmatter `name:` anywhere below a root (skills_list shows the frontmatter name).
  for (const skill of found) {
    if (basename(skill.dir) === name || skill.frontmatter.name === name)
      record(skill.dir, skill.skillMd, skill.tier === "project");
  }
  return out;
}

/** Upstream's `is_skill_support_path`: below a `references/`… folder of a real skill, a SKILL.md is data, not a skill. */
function isSupportPath(root: string, path: string): boolean {
  const parts = relative(root, path).split(sep);
  for (let i = 1; i < parts.length - 1; i++) {
    if (
      (SKILL_SUPPORT_DIRS as readonly string[]).includes(parts[i]!) &&
      statOr(join(root, ...parts.slice(0, i), "SKILL.md"))?.isFile()
    )
      return true;
  }
  return false;
}

/** Upstream's `_skill_lookup_path_error`: a lookup name must stay inside the roots it is joined onto. */
function lookupProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return "Skill name must be a string.";
  const candidate = name.trim();
  if (!candidate) return "Skill name must not be empty.";
  if (candidate.startsWith("/") || candidate.startsWith("\\") || /^[A-Za-z]:/.test(candidate))
    return "Skill name must be a relative path within the skills directory.";
  if (candidate.split(/[\\/]/).includes("..")) return "Skill name cannot contain '..' path traversal components.";
  return undefined;
}

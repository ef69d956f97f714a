import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { SkillSettings } from "../config/skill-settings.js";
import { findGitRoot, realpathOr, statOr } from "../context/fs-probe.js";

/** Where a skill came from; earlier tiers win a name (upstream's `get_scan_ordered_skills_dirs`). */
export type SkillTier = "project" | "home" | "external";

export interface SkillRoot {
  readonly dir: string;
  readonly tier: SkillTier;
}

export interface SkillRoots {
  /** In precedence order: trusted project dirs, then HERMES_HOME/skills, then `skills.external_dirs`. */
  readonly roots: readonly SkillRoot[];
  /** HERMES_HOME/skills, whether or not it exists yet. */
  readonly homeSkillsDir: string;
  /** The project has skill folders but its root is not in `skills.trusted_project_dirs`: they are not loaded. */
  readonly untrustedProject?: { readonly root: string; readonly dirs: readonly string[] };
}

/** Upstream's PROJECT_SKILLS_SUBDIRS: Hermes' own folder and the cross-tool `.agents/skills`. */
const PROJECT_SKILL_SUBDIRS = [join(".hermes", "skills"), join(".agents", "skills")];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The folders skills load from for a session in `cwd`. Only stats a handful of paths (no walking), so it is cheap
 * enough for session/new.
 *
 * Project skills follow upstream's trust gate: unlike AGENTS.md, a skill is a procedure the agent is told to
 * follow, so a cloned repository's `.hermes/skills` loads only when its root is listed in
 * `skills.trusted_project_dirs` (and never with `skills.project_discovery: false`). Trusted project skills then
 * shadow same-named home and external ones inside that project, as upstream's do.
 */
export function resolveSkillRoots(
  home: string,
  cwd: string,
  settings: SkillSettings,
  env: Env = process.env,
): SkillRoots {
  const homeSkillsDir = join(home, "skills");
  const homeReal = realpathOr(homeSkillsDir);
  const roots: SkillRoot[] = [];
  let untrustedProject: SkillRoots["untrustedProject"];

  const projectRoot = settings.projectDiscovery ? findProjectRoot(cwd) : undefined;
  if (projectRoot) {
    const dirs = PROJECT_SKILL_SUBDIRS.map((sub) => realpathOr(join(projectRoot, sub))).filter(
      (d) => isDirectory(d) && d !== homeReal,
    );
    const trusted = new Set(settings.trustedProjectDirs.map((entry) => realpathOr(expandPath(entry, home, env))));
    if (trusted.has(projectRoot)) roots.push(...dirs.map((dir) => ({ dir, tier: "project" as const })));
    else if (dirs.length > 0) untrustedProject = { root: projectRoot, dirs };
  }

  if (isDirectory(homeSkillsDir)) roots.push({ dir: homeSkillsDir, tier: "home" });

  const seen = new Set<string>([homeReal]);
  for (const entry of settings.externalDirs) {
    const dir = realpathOr(expandPath(entry, home, env));
    if (seen.has(dir) || !isDirectory(dir)) continue;
    seen.add(dir);
    roots.push({ dir, tier: "external" });
  }
  return untrustedProject ? { roots, homeSkillsDir, untrustedProject } : { roots, homeSkillsDir };
}

/**
 * Upstream's `find_project_root`: the nearest folder holding `.git`, except the home folder itself (a dotfiles
 * checkout there would make every session a project).
 */
function findProjectRoot(cwd: string): string | undefined {
  const root = findGitRoot(realpathOr(cwd));
  if (!root || root === realpathOr(homedir())) return undefined;
  return root;
}

/** `~` and `$VAR`/`${VAR}` expanded (unknown variables stay as written, as os.path.expandvars); relative → HERMES_HOME. */
export function expandPath(entry: string, home: string, env: Env): string {
  const path = expandUserAndVars(entry.trim(), env);
  return isAbsolute(path) ? resolve(path) : resolve(home, path);
}

/** Python's `os.path.expanduser(os.path.expandvars(text))`. */
export function expandUserAndVars(text: string, env: Env): string {
  const expanded = text.replace(
    /\$(\w+)|\$\{([^}]+)\}/g,
    (match, bare: string | undefined, braced: string | undefined) => env[bare ?? braced ?? ""] ?? match,
  );
  if (expanded === "~") return homedir();
  return expanded.startsWith("~/") ? join(homedir(), expanded.slice(2)) : expanded;
}

function isDirectory(path: string): boolean {
  return statOr(path)?.isDirectory() === true;
}

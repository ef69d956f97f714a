import { existsSync } from "node:fs";
import { type Frontmatter, hermesMetadata, stringList } from "./skill-frontmatter.js";

/** Upstream's PLATFORM_MAP: the names skills use in `platforms:`, to Node's (= Python's sys.platform) prefixes. */
const PLATFORM_MAP: Readonly<Record<string, string>> = { macos: "darwin", linux: "linux", windows: "win32" };

/**
 * Upstream's `skill_matches_platform`: no `platforms:` means every OS; otherwise the current OS must be one of them.
 * A hard gate: an incompatible skill is neither offered nor loadable.
 */
export function matchesPlatform(frontmatter: Frontmatter, current: string = process.platform): boolean {
  const platforms = stringList(frontmatter.platforms);
  if (platforms.length === 0) return true;
  return platforms.some((p) => current.startsWith(PLATFORM_MAP[p.toLowerCase()] ?? p.toLowerCase()));
}

const ENVIRONMENT_PROBES: Readonly<Record<string, () => boolean>> = {
  kanban: () => Boolean(process.env.HERMES_KANBAN_TASK || process.env.HERMES_KANBAN_BOARD),
  docker: () => existsSync("/.dockerenv") || existsSync("/run/.containerenv"),
  s6: () => existsSync("/run/s6") || existsSync("/package/admin/s6-overlay"),
};

/**
 * Upstream's `skill_matches_environment`: `environments: [kanban|docker|s6]` offers a skill only where one of them is
 * active. An offer-time filter (index, skills_list, slash commands), never a load-time one; unknown tags fail open.
 */
export function matchesEnvironment(frontmatter: Frontmatter): boolean {
  const environments = stringList(frontmatter.environments).map((e) => e.toLowerCase());
  if (environments.length === 0) return true;
  return environments.some((env) => {
    const probe = ENVIRONMENT_PROBES[env];
    return probe ? probe() : true;
  });
}

/** Upstream's `extract_skill_conditions` (`metadata.hermes.*`): when a skill is worth offering, given the tools. */
export interface SkillConditions {
  readonly requiresToolsets: readonly string[];
  readonly fallbackForToolsets: readonly string[];
  readonly requiresTools: readonly string[];
  readonly fallbackForTools: readonly string[];
}

export function conditionsOf(frontmatter: Frontmatter): SkillConditions {
  const hermes = hermesMetadata(frontmatter);
  return {
    requiresToolsets: stringList(hermes.requires_toolsets),
    fallbackForToolsets: stringList(hermes.fallback_for_toolsets),
    requiresTools: stringList(hermes.requires_tools),
    fallbackForTools: stringList(hermes.fallback_for_tools),
  };
}

/**
 * Upstream's `_skill_should_show`: a fallback skill hides while the thing it stands in for is there (a DuckDuckGo
 * skill while `web` tools exist); a skill that needs a toolset or tool hides while it is missing. The session's
 * toolsets come from its tools' definitions (tools/toolsets.ts, above this floor).
 */
export function offeredWith(
  conditions: SkillConditions,
  tools: ReadonlySet<string>,
  toolsets: ReadonlySet<string>,
): boolean {
  return !(
    conditions.fallbackForToolsets.some((ts) => toolsets.has(ts)) ||
    conditions.fallbackForTools.some((t) => tools.has(t)) ||
    conditions.requiresToolsets.some((ts) => !toolsets.has(ts)) ||
    conditions.requiresTools.some((t) => !tools.has(t))
  );
}

import { ConfigError, formatConfigProblem } from "../../config/config-error.js";
import { readSkillSettings, type SkillSettings } from "../../config/skill-settings.js";
import { readYamlFile } from "../../config/yaml-file.js";
import { resolveSkillRoots, type SkillRoots } from "../../skills/skill-roots.js";
import type { ToolContext, ToolResult } from "../tool.js";

export interface SkillToolContext {
  readonly settings: SkillSettings;
  readonly roots: SkillRoots;
}

/**
 * The skill settings and folders as they are now: config.yaml is read on each call, as upstream does, so a skill
 * dir added to `skills.external_dirs` mid-session is seen without a restart. A broken config.yaml is an error the
 * model can relay, not a crash.
 */
export function skillToolContext(ctx: ToolContext): SkillToolContext | ToolResult {
  let settings: SkillSettings;
  try {
    settings = readSkillSettings(readYamlFile(ctx.state.settings.configPath));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return skillJson(
      { success: false, error: `Cannot read skills settings: ${formatConfigProblem(error.problem)}` },
      true,
    );
  }
  return { settings, roots: resolveSkillRoots(ctx.home, ctx.workspace.root, settings) };
}

/** Upstream's skill tools answer in JSON; a `success: false` answer is a failed call. */
export function skillJson(payload: Readonly<Record<string, unknown>>, isError = false): ToolResult {
  return isError ? { content: JSON.stringify(payload), isError: true } : { content: JSON.stringify(payload) };
}

import { homedir } from "node:os";
import { basename, join, relative, sep } from "node:path";
import type { SkillSettings } from "../config/skill-settings.js";
import { skillConfigVars } from "./skill-frontmatter.js";
import type { LoadedSkill } from "./skill-loader.js";
import { expandUserAndVars } from "./skill-roots.js";
import { linkedFiles } from "./skill-support-files.js";

/**
 * Upstream's `substitute_template_vars` (skills.template_vars, default on): `${HERMES_SKILL_DIR}` and
 * `${HERMES_SESSION_ID}` become their values; tokens without a value here (`${HERMES_SESSION_KEY}`,
 * `${HERMES_BINDING_KEY}`, gateway notions) stay as written so the author can spot them. Upstream's opt-in inline
 * shell (`` !`cmd` ``) is not run: it would execute commands outside the approval flow.
 */
export function renderSkillContent(
  content: string,
  skillDir: string | undefined,
  sessionId: string,
  settings: SkillSettings,
): string {
  if (!settings.templateVars) return content;
  return content.replace(/\$\{(HERMES_SKILL_DIR|HERMES_SESSION_ID)\}/g, (token, name: string) => {
    if (name === "HERMES_SKILL_DIR") return skillDir ?? token;
    return sessionId || token;
  });
}

const SKILL_DIR_NOTE =
  "Resolve any relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against that directory, then run them with the terminal tool using the absolute path.";

export interface InvocationInput {
  readonly skill: LoadedSkill;
  /** What the user typed after `/skill-name` (attachments and @ references already expanded). */
  readonly instruction: string;
  readonly home: string;
  readonly homeSkillsDir: string;
  readonly sessionId: string;
  readonly settings: SkillSettings;
}

/**
 * The user message for `/skill-name [instruction]`, as upstream's `build_skill_invocation_message` /
 * `_build_skill_message` (agent/skill_commands.py) build it: the activation note, the whole SKILL.md, its folder,
 * its config values, its supporting files, then the user's instruction. The markers are upstream's, byte for byte,
 * so transcripts read the same as in the CLI.
 */
export function buildSkillInvocationMessage(input: InvocationInput): string {
  const { skill } = input;
  const note = `${INVOCATION_PREFIX}"${skill.name}" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]`;
  const parts = [note, "", renderSkillContent(skill.content, skill.dir, input.sessionId, input.settings).trim()];
  if (skill.dir) parts.push("", `[Skill directory: ${skill.dir}]`, SKILL_DIR_NOTE);
  parts.push(...configBlock(skill, input));
  const supporting = Object.values(linkedFiles(skill.dir)).flat();
  if (supporting.length > 0 && skill.dir) {
    const below = relative(input.homeSkillsDir, skill.dir);
    const target =
      below && !below.startsWith("..") && !below.startsWith(sep) ? below.split(sep).join("/") : basename(skill.dir);
    parts.push("", "[This skill has supporting files (paths relative to the skill directory above):]");
    parts.push(...supporting.map((file) => `- ${file}`));
    parts.push(
      `\nLoad any of these with skill_view(name="${target}", file_path="<path>"), or run scripts directly by absolute path (e.g. \`node ${skill.dir}/scripts/foo.js\`).`,
    );
  }
  if (input.instruction) parts.push("", `${INSTRUCTION_MARKER}${input.instruction}`);
  return parts.join("\n");
}

const INVOCATION_PREFIX = "[IMPORTANT: The user has invoked the ";
const INSTRUCTION_MARKER = "The user has provided the following instruction alongside the skill invocation: ";

/**
 * Upstream's `describe_skill_invocation`: a skill turn as the user typed it (`/deploy ship v2`), so a replayed
 * history shows the command, not the whole skill. Undefined for any other message. The instruction follows the
 * skill body, which may quote the marker: the last marker is the user's.
 */
export function describeSkillInvocation(content: string): string | undefined {
  if (!content.startsWith(INVOCATION_PREFIX)) return undefined;
  const name = /^"([^"]*)" skill, /.exec(content.slice(INVOCATION_PREFIX.length))?.[1];
  if (name === undefined) return undefined;
  const at = content.lastIndexOf(INSTRUCTION_MARKER);
  const instruction = at < 0 ? "" : content.slice(at + INSTRUCTION_MARKER.length).trim();
  return instruction ? `/${name} ${instruction}` : `/${name}`;
}

/** Upstream's `_inject_skill_config`: the skill's `metadata.hermes.config` values as set under `skills.config`. */
function configBlock(skill: LoadedSkill, input: InvocationInput): string[] {
  const vars = skillConfigVars(skill.frontmatter);
  if (vars.length === 0) return [];
  const lines = ["", `[Skill config (from ${displayHome(input.home)}/config.yaml):`];
  for (const v of vars) {
    let value = lookup(input.settings.config, v.key);
    if (value === undefined || value === null || (typeof value === "string" && !value.trim())) {
      value = v.default ?? "";
      if (typeof value === "string") value = expandSkillDefault(value, skill.dir, input);
    } else if (typeof value === "string" && (value.includes("~") || value.includes("${"))) {
      // The user's own config.yaml: their variables are theirs to hand to the skill.
      value = expandUserAndVars(value, process.env);
    }
    lines.push(`  ${v.key} = ${value === "" || value === false || value === 0 ? "(not set)" : String(value)}`);
  }
  lines.push("]");
  return lines;
}

/**
 * A default written by the skill's author. Upstream runs `os.path.expandvars` on it, so a skill declaring
 * `default: "${OPENAI_API_KEY}"` gets the key into the user turn (the model, the session store, any transcript). Here
 * a skill's text never reads the environment: only `~`, `$HOME` (as upstream's tool-home expansion does) and our
 * documented template variables are filled in; any other `${VAR}` stays as written.
 */
function expandSkillDefault(value: string, skillDir: string | undefined, input: InvocationInput): string {
  let expanded = renderSkillContent(value, skillDir, input.sessionId, input.settings);
  expanded = expanded.replace(/\$(?:\{HOME\}|HOME)(?=$|[/\\])/g, () => homedir());
  if (expanded === "~") return homedir();
  return /^~[/\\]/.test(expanded) ? join(homedir(), expanded.slice(2)) : expanded;
}

function lookup(config: Readonly<Record<string, unknown>>, dotted: string): unknown {
  let current: unknown = config;
  for (const part of dotted.split(".")) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Upstream's `display_hermes_home`: `~/.hermes` rather than the absolute path when it is under the home folder. */
function displayHome(home: string): string {
  const rel = relative(homedir(), home);
  return rel && !rel.startsWith("..") && !rel.startsWith(sep) ? `~/${rel.split(sep).join("/")}` : home;
}

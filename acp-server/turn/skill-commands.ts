import type { AvailableCommand, ContentBlock } from "@agentclientprotocol/sdk";
import {
  buildSkillInvocationMessage,
  discoverSkills,
  loadSkillFile,
  readSkillSettings,
  type SkillCatalog,
  type SkillEntry,
} from "../../agent/index.js";
import type { AcpSession } from "../session/acp-session.js";
import { buildUserTurn, type UserTurn } from "./user-turn.js";

/** Upstream's `slugify_skill_name`: lower case, spaces to hyphens, only letters, digits, `_` and `-` (any script). */
export function skillSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/ /g, "-")
    .replace(/[^\p{L}\p{N}_-]/gu, "")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
}

interface SkillCommand {
  readonly slug: string;
  readonly skill: SkillEntry;
}

/**
 * One `/slug` per offered skill, first skill of a slug wins (precedence order: project, home, external). A skill
 * whose slug is a built-in command's name is not a command: the built-in wins, as upstream's
 * `skill_command_collision_note` decides, since a skill must never shadow /new or /compress. The skill stays
 * loadable with skill_view.
 */
function skillCommands(catalog: SkillCatalog, builtins: ReadonlySet<string>): SkillCommand[] {
  const commands = new Map<string, SkillCommand>();
  for (const skill of catalog.skills) {
    const slug = skillSlug(skill.name);
    if (!slug || builtins.has(slug) || commands.has(slug)) continue;
    commands.set(slug, { slug, skill });
  }
  return [...commands.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/**
 * The skills as the session's commands know them: those of its system prompt, until skill_manage changes a skill
 * (then refreshSkillCommands reads them again). The system prompt's index stays as the session began, as upstream's.
 */
const refreshedCatalogs = new WeakMap<AcpSession, SkillCatalog>();
const catalogOf = (session: AcpSession): SkillCatalog =>
  refreshedCatalogs.get(session) ?? session.ready.systemPrompt.skills;

/** The skills as ACP commands, after the built-ins in `available_commands_update`. */
export function skillAvailableCommands(session: AcpSession, builtins: readonly AvailableCommand[]): AvailableCommand[] {
  return skillCommands(catalogOf(session), new Set(builtins.map((c) => c.name))).map(({ slug, skill }) => ({
    name: slug,
    description: skill.description || `Invoke the ${skill.name} skill`,
    input: { hint: "what to do with the skill (optional)" },
  }));
}

/**
 * Reads the skills again after a tool may have changed them (skill_manage, or a subagent that ran it) and returns
 * the whole command list when the skill commands changed, so a new skill is a `/command` without a restart; undefined
 * when nothing changed (no update is sent).
 */
export function refreshSkillCommands(
  session: AcpSession,
  builtins: readonly AvailableCommand[],
): AvailableCommand[] | undefined {
  const before = JSON.stringify(skillAvailableCommands(session, builtins));
  const { config } = session.ready;
  refreshedCatalogs.set(
    session,
    discoverSkills({ home: config.home, cwd: session.cwd, settings: readSkillSettings(config.yaml) }),
  );
  const after = skillAvailableCommands(session, builtins);
  return JSON.stringify(after) === before ? undefined : [...builtins, ...after];
}

/** A skill command typed by the user: the skill's message to send, or why the skill could not be loaded. */
export type SkillTurn = UserTurn | { readonly reply: string };

/**
 * `/skill-name [instruction]` as upstream's CLI runs it: the rest of the prompt (attachments, @ references and hints
 * included) becomes the instruction, and the turn's user message is the skill invocation message carrying the whole
 * SKILL.md. Anything else is an ordinary turn. The skill file is read and threat-scanned now, so an edit since the
 * session started is used, and a file that turned malicious is refused with the scanner's finding.
 */
export async function buildSkillOrUserTurn(
  session: AcpSession,
  blocks: readonly ContentBlock[],
  builtins: readonly AvailableCommand[],
  signal: AbortSignal,
): Promise<SkillTurn> {
  const first = blocks[0];
  const match = first?.type === "text" ? /^\s*\/(\S+)(?:\s+([\s\S]*))?$/.exec(first.text) : null;
  const command = match ? findCommand(session, match[1]!, builtins) : undefined;
  if (!command || first?.type !== "text") return buildUserTurn(session, blocks, signal);

  const settings = readSkillSettings(session.ready.config.yaml);
  const roots = session.ready.systemPrompt.skills.roots;
  const loaded = loadSkillFile(command.skill, roots, settings, command.skill.name);
  if (!loaded.ok) {
    const where = loaded.findings?.length
      ? ` (${loaded.findings.map((f) => `${f.id} at line ${f.line}`).join(", ")} in ${command.skill.skillMd})`
      : "";
    return { reply: `The ${command.skill.name} skill was not loaded${where}: ${loaded.error}` };
  }
  const rest = [{ ...first, text: (match![2] ?? "").trim() }, ...blocks.slice(1)];
  const turn = await buildUserTurn(session, rest, signal);
  const invocation = (instruction: string) =>
    buildSkillInvocationMessage({
      skill: loaded.skill,
      instruction,
      home: session.ready.config.home,
      homeSkillsDir: roots.homeSkillsDir,
      sessionId: session.id,
      settings,
    });
  const text = invocation(turn.text.trim());
  // The editor's context joins the instruction only when the model is about to be called (user-turn.ts).
  const message = () => {
    const instruction = turn.message().trim();
    return instruction === turn.text.trim() ? text : invocation(instruction);
  };
  return { ...turn, text, message };
}

/** Upstream's `resolve_slash_key`: the slug as typed, or with `_` for `-` (clients that cannot type hyphens). */
function findCommand(
  session: AcpSession,
  typed: string,
  builtins: readonly AvailableCommand[],
): SkillCommand | undefined {
  const commands = skillCommands(catalogOf(session), new Set(builtins.map((c) => c.name)));
  const bare = typed.toLowerCase();
  return commands.find((c) => c.slug === bare) ?? commands.find((c) => c.slug === bare.replace(/_/g, "-"));
}

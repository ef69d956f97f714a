import type { PromptSettings } from "../config/prompt-settings.js";
import { DEFAULT_SKILL_SETTINGS } from "../config/skill-settings.js";
import { findGitRoot } from "../context/fs-probe.js";
import { type ContextCap, resolveContextCap } from "../context/truncation.js";
import { discoverSkills, type SkillCatalog } from "../skills/skill-catalog.js";
import type { SkillRoots } from "../skills/skill-roots.js";
import { renderSkillsIndex } from "../skills/skills-index.js";
import type { ContextFileDecision } from "./context-decision.js";
import {
  HERMES_HELP_GUIDANCE,
  PARALLEL_TOOL_CALL_GUIDANCE,
  STEER_CHANNEL_NOTE,
  TASK_COMPLETION_GUIDANCE,
  toolGuidance,
} from "./guidance.js";
import { memoryBlock } from "./memory-snapshot.js";
import { discoverProjectContext } from "./project-context.js";
import { loadIdentity } from "./soul.js";

export interface SystemPromptInput {
  readonly home: string;
  readonly cwd: string;
  readonly model: string;
  readonly providerId: string;
  readonly contextLength: number | undefined;
  readonly settings: PromptSettings;
  readonly toolNames: ReadonlySet<string>;
  /** The toolsets those tools form (tools/toolsets.ts toolsetsOf), for skills that require or stand in for one. */
  readonly toolsets: ReadonlySet<string>;
  readonly now: Date;
}

export type LayerName = "stable" | "context" | "volatile";

/** Everything the context inspector reports about how the prompt was built. */
export interface ContextReport {
  readonly cwd: string;
  readonly gitRoot: string | undefined;
  readonly cap: ContextCap;
  readonly identity: ContextFileDecision | undefined;
  readonly files: readonly ContextFileDecision[];
  readonly memory: { readonly memoryEntries: number; readonly userEntries: number; readonly blockedEntries: number };
  readonly layers: ReadonlyArray<{
    readonly name: LayerName;
    readonly chars: number;
    readonly estimatedTokens: number;
  }>;
  /** Upstream's truncation warnings, to be shown to the user (not only logged). */
  readonly warnings: readonly string[];
  /** Skills the threat scanner kept out, and a project whose skills wait for trust. */
  readonly skills?: Pick<SkillCatalog, "blocked"> & {
    readonly offered: number;
    readonly untrustedProject?: SkillRoots["untrustedProject"];
  };
}

export interface SystemPrompt {
  readonly text: string;
  readonly layers: Readonly<Record<LayerName, string>>;
  readonly report: ContextReport;
  /** The skills behind the index, discovered once with the prompt: slash commands and the index agree all session. */
  readonly skills: SkillCatalog;
}

export const PROJECT_CONTEXT_HEADING =
  "# Project Context\n\nThe following project context files have been loaded and should be followed:\n\n";

/**
 * Upstream's three tiers, stable → context → volatile, each the non-empty parts joined with a blank line. Built
 * once per session and reused byte for byte on every turn so providers' prompt caches hit; rebuilt only after
 * compression or a model change.
 */
export function buildSystemPrompt(input: SystemPromptInput): SystemPrompt {
  const cap = resolveContextCap(input.settings.contextFileMaxChars, input.contextLength);
  const identity = loadIdentity(input.home, cap.maxChars);
  const hasTools = input.toolNames.size > 0;
  const skills = discoverSkills({
    home: input.home,
    cwd: input.cwd,
    settings: input.settings.skills ?? DEFAULT_SKILL_SETTINGS,
  });
  const stable = joinParts([
    identity.text,
    HERMES_HELP_GUIDANCE,
    hasTools ? TASK_COMPLETION_GUIDANCE : "",
    hasTools ? PARALLEL_TOOL_CALL_GUIDANCE : "",
    toolGuidance(input.toolNames),
    hasTools ? STEER_CHANNEL_NOTE : "",
    renderSkillsIndex(skills, input.toolNames, input.toolsets),
  ]);

  const project = discoverProjectContext(input.cwd, cap.maxChars);
  const context = project.text ? joinParts([PROJECT_CONTEXT_HEADING + project.text]) : "";

  const memory = input.settings.memoryEnabled
    ? memoryBlock(input.home, "memory", input.settings.memoryCharLimit)
    : undefined;
  const user = input.settings.userProfileEnabled
    ? memoryBlock(input.home, "user", input.settings.userCharLimit)
    : undefined;
  const volatile = joinParts([memory?.text ?? "", user?.text ?? "", timestampLine(input)]);

  const layers = { stable, context, volatile };
  const text = [stable, context, volatile].filter((t) => t).join("\n\n");
  return {
    text,
    layers,
    report: {
      cwd: input.cwd,
      gitRoot: findGitRoot(input.cwd),
      cap,
      identity: identity.decision,
      files: project.decisions,
      memory: {
        memoryEntries: memory?.entries ?? 0,
        userEntries: user?.entries ?? 0,
        blockedEntries: (memory?.blocked ?? 0) + (user?.blocked ?? 0),
      },
      layers: (["stable", "context", "volatile"] as const).map((name) => ({
        name,
        chars: layers[name].length,
        estimatedTokens: Math.ceil(layers[name].length / 4),
      })),
      warnings: [...identity.warnings, ...project.warnings],
      skills: {
        offered: skills.skills.length,
        blocked: skills.blocked,
        ...(skills.roots.untrustedProject ? { untrustedProject: skills.roots.untrustedProject } : {}),
      },
    },
    skills,
  };
}

function joinParts(parts: readonly string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p)
    .join("\n\n");
}

// Written out rather than Intl.DateTimeFormat("en-US", …): building that formatter loads ICU locale data, ~15 ms
// on the first session/new of a process, for the same words in the same local time zone.
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `Sunday, November 29, 2026`: the local date, as en-US writes it in full. */
function longDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid time value");
  return `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2, "0")}, ${date.getFullYear()}`;
}

/** `Conversation started: Sunday, November 29, 2026` (date only, so the line is stable all day), model, provider. */
function timestampLine(input: SystemPromptInput): string {
  return `Conversation started: ${longDate(input.now)}\nModel: ${input.model}\nProvider: ${input.providerId}`;
}

/**
 * Dangerous-command assessment (hermes-behaviour.md §6.3, upstream `detect_hardline_command`,
 * `_check_sudo_stdin_guard` and `detect_dangerous_command`). Pure: no configuration, environment or session state
 * is read here; the caller passes the homes to fold and whether SUDO_PASSWORD is configured, and decides what to do
 * with the verdict (block, ask, or run).
 *
 * Order, as upstream: parser limits, hardline rules, the sudo -S guard, dangerous rules, structural findings.
 * Deliberate differences from upstream are listed in the comments of the modules they live in (notably upstream
 * gap 2, `git branch -d`, in command-patterns.ts); the sudo guard here also scans inline payloads and marked starts,
 * not just the normalised command, and an analysis that hits its work bounds fails closed like the parser limits.
 */
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { maskDataArguments } from "./command-data-mask.js";
import { decodedPayloads } from "./command-decode.js";
import { patternMatches } from "./command-match.js";
import { type NormaliseOptions, preNormalise } from "./command-normalise.js";
import { isForkBomb, opaqueFinding } from "./command-opaque.js";
import { type CommandPattern, DANGEROUS_PATTERNS, HARDLINE_PATTERNS, SUDO_STDIN_REGEX } from "./command-patterns.js";
import { lexShellWithRedirections } from "./command-shell-lex.js";
import { outsideTargets, type WriteTarget, writeTargets } from "./command-targets.js";
import { analyseCommand } from "./command-variants.js";
import { sudoReadsStdin, type WordFinding, wordRules } from "./command-word-rules.js";

export { isCompoundCommand, matchesCommandGlob } from "./command-glob.js";
export { analyseCommand } from "./command-variants.js";

export type CommandRisk =
  | { readonly level: "hardline"; readonly description: string }
  | { readonly level: "dangerous"; readonly description: string; readonly outside?: readonly string[] }
  | { readonly level: "safe" };

export interface AssessOptions extends NormaliseOptions {
  /** SUDO_PASSWORD is configured, so the agent's own `sudo -S` is expected and the guard is off. */
  readonly sudoPasswordSet?: boolean;
  /**
   * The workspace root. With it, a command that changes paths outside the workspace (and the temp folders) is
   * dangerous, and the verdict lists those paths in `outside`: no session or permanent approval covers them.
   */
  readonly workspaceRoot?: string;
  /** The directory the command runs in (the terminal's workdir); the workspace root when absent. */
  readonly cwd?: string;
}

export const OUTSIDE_WORKSPACE_DESCRIPTION = "changes files outside the workspace";

export const MAX_DETECTION_COMMAND_CHARS = 128_000;
export const MAX_SEPARATOR_FREE_COMMAND_CHARS = 4_096;
export const MAX_DETECTION_SEGMENTS = 25_000;
export const PARSER_LIMIT_DESCRIPTION = "command parser limit exceeded";
export const SUDO_STDIN_DESCRIPTION = "sudo password guessing via stdin (sudo -S)";

export const SUDO_STDIN_MESSAGE =
  "BLOCKED: sudo password guessing via stdin (sudo -S). Do not pipe passwords to 'sudo -S' — this is a " +
  "brute-force attack vector. Set SUDO_PASSWORD in your .env file if the agent needs passwordless sudo, or run " +
  "the sudo command manually in your own terminal.";

export const USER_DENIED_MESSAGE =
  "BLOCKED: User denied this command. The user has NOT consented to this action. Do NOT retry this command, do " +
  "NOT rephrase it, and do NOT attempt the same outcome via a different command. Stop the current workflow and " +
  "wait for the user to respond before taking any further destructive or irreversible action.";

export function hardlineMessage(description: string): string {
  return (
    `BLOCKED (hardline): ${description}. This command is on the unconditional blocklist and cannot be executed via ` +
    "the agent — not even with --yolo, /yolo, approvals.mode=off, or cron approve mode. If you genuinely need to " +
    "run it, run it yourself in a terminal outside the agent."
  );
}

export function denyRuleMessage(pattern: string): string {
  return (
    `BLOCKED: this command matches the user-defined deny rule '${pattern}' (approvals.deny in config.yaml). It ` +
    "cannot be executed via the agent — not even with --yolo, /yolo, or approvals.mode=off. Do NOT retry or " +
    "rephrase this command; the user has explicitly forbidden it."
  );
}

/**
 * Upstream's `_command_parser_limit_exceeded`: bound the work before parsing. A separator-free command is one with
 * none of `;&|` or newline anywhere (upstream's reading; a long single command line is never useful to split).
 */
export function parserLimitExceeded(command: string): boolean {
  if (command.length > MAX_DETECTION_COMMAND_CHARS) return true;
  if (command.length > MAX_SEPARATOR_FREE_COMMAND_CHARS && !/[;&|\n]/.test(command)) return true;
  let separators = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    // ; & | \n
    if (c === 0x3b || c === 0x26 || c === 0x7c || c === 0x0a) separators++;
  }
  return separators >= MAX_DETECTION_SEGMENTS;
}

/** The first rule, in table order, that matches any variant. */
function firstMatch(patterns: readonly CommandPattern[], variants: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    if (variants.some((variant) => patternMatches(pattern, variant))) return pattern.description;
  }
  return undefined;
}

/** What the lexed words say about the command and each command line it hands to a shell. */
interface WordReading {
  readonly forkBomb: boolean;
  readonly sudoStdin: boolean;
  readonly rule: WordFinding | undefined;
  readonly opaque: string | undefined;
  readonly targets: readonly WriteTarget[];
}

function readWords(texts: readonly string[], options: AssessOptions): WordReading {
  const home = options.home ?? "";
  let rule: WordFinding | undefined;
  let opaque: string | undefined;
  const targets: WriteTarget[] = [];
  let forkBomb = false;
  let sudoStdin = false;
  for (const text of texts) {
    const pre = preNormalise(text);
    forkBomb ||= isForkBomb(pre);
    const { commands, redirections } = lexShellWithRedirections(pre);
    sudoStdin ||= sudoReadsStdin(commands);
    const found = writeTargets(commands, redirections, {
      home,
      ...(options.workspaceRoot ? { root: options.workspaceRoot } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    targets.push(...found);
    const finding = wordRules(commands, redirections, found, {
      home,
      ...(options.hermesHome ? { hermesHome: options.hermesHome } : {}),
    });
    if (finding && (!rule || (finding.level === "hardline" && rule.level !== "hardline"))) rule = finding;
    opaque ??= opaqueFinding(commands);
  }
  return { forkBomb, sudoStdin, rule, opaque, targets };
}

/**
 * Upstream's one exemption: the agent removing its own verification scratch file, exactly `rm -f
 * <tmp>/hermes-verify-…` or `…/hermes-ad-hoc-…`, one literal operand directly in the (canonical) temp folder.
 */
export function isVerificationCleanup(command: string): boolean {
  const match = /^rm\s+-f\s+([^\s'"`$*?[\];&|<>()\\]+)$/.exec(command.trim());
  if (!match) return false;
  const path = match[1]!;
  const slash = path.lastIndexOf("/");
  if (!/^hermes-(?:verify|ad-hoc)-/.test(path.slice(slash + 1)) || path.split("/").some((part) => part === ".."))
    return false;
  try {
    return (
      slash > 0 &&
      realpathSync(path.slice(0, slash)) === realpathSync(tmpdir()) &&
      path.slice(0, slash) === realpathSync(tmpdir())
    );
  } catch {
    return false;
  }
}

/** Decoded payloads inside decoded payloads are followed this deep (each level can hold several). */
const MAX_DECODE_DEPTH = 2;

export function assessCommand(command: string, options: AssessOptions = {}): CommandRisk {
  return assess(command, options, 0);
}

function assess(command: string, options: AssessOptions, depth: number): CommandRisk {
  if (parserLimitExceeded(command)) return { level: "hardline", description: PARSER_LIMIT_DESCRIPTION };
  // Prose handed to echo / git commit -m is data: blanked before any rule reads the command.
  const analysis = analyseCommand(maskDataArguments(preNormalise(command)), options);
  if (analysis.incomplete) return { level: "hardline", description: PARSER_LIMIT_DESCRIPTION };
  const { variants } = analysis;

  const hardline = firstMatch(HARDLINE_PATTERNS, variants);
  if (hardline) return { level: "hardline", description: hardline };
  const words = readWords(analysis.texts, options);
  if (words.forkBomb) return { level: "hardline", description: "fork bomb" };
  if (words.rule?.level === "hardline") return { level: "hardline", description: words.rule.description };
  // A literal payload decoded and handed to a shell is judged as the line it is (each is shorter, so this ends).
  for (const payload of depth < MAX_DECODE_DEPTH ? decodedPayloads(preNormalise(command)) : []) {
    const inner = assess(payload, options, depth + 1);
    if (inner.level === "hardline") return inner;
  }

  if (!options.sudoPasswordSet && (words.sudoStdin || variants.some((variant) => SUDO_STDIN_REGEX.test(variant)))) {
    return { level: "hardline", description: SUDO_STDIN_DESCRIPTION };
  }

  if (isVerificationCleanup(command)) return { level: "safe" };
  const outside = [...new Set(outsideTargets(words.targets, options.workspaceRoot).map((t) => t.value))];
  const dangerous = (description: string): CommandRisk => ({
    level: "dangerous",
    description,
    ...(outside.length > 0 ? { outside } : {}),
  });
  const matched =
    firstMatch(DANGEROUS_PATTERNS, variants) ?? words.rule?.description ?? words.opaque ?? analysis.findings[0];
  if (matched) return dangerous(matched);
  if (outside.length > 0) return dangerous(OUTSIDE_WORKSPACE_DESCRIPTION);
  return { level: "safe" };
}

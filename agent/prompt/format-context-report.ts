import { describeThreat } from "../security/threat-descriptions.js";
import type { ThreatFinding } from "../security/threat-scanner.js";
import { blockedSkillFindings } from "../skills/skill-catalog.js";
import { displayPath } from "../workspace/resolve-path.js";
import type { ContextFileDecision } from "./context-decision.js";
import type { ContextReport } from "./system-prompt.js";

const n = (value: number) => value.toLocaleString("en-US");

/**
 * The context inspector's readable form (Markdown that also reads well as plain text): which file was loaded,
 * which were shadowed and by what, what was blocked (pattern, line, the words that matched and what the pattern looks
 * for, so that a false positive can be reworded at once), what was truncated, and what each prompt layer costs.
 */
export function formatContextReport(report: ContextReport): string {
  const show = (path: string) => displayPath(path, report.cwd);
  const lines: string[] = [`**Project context for ${report.cwd}**`, ""];
  lines.push(
    report.gitRoot
      ? `- git root: ${report.gitRoot} (.hermes.md / HERMES.md are looked for from here up to it)`
      : "- no git root: .hermes.md / HERMES.md are looked for in this folder only",
  );
  lines.push(`- cap per context file: ${n(report.cap.maxChars)} chars (${capSource(report)})`);
  lines.push("", "**Identity**", "");
  lines.push(
    report.identity
      ? `- ${describe(report.identity, show)}`
      : "- default Hermes identity (no SOUL.md in HERMES_HOME, or it is empty)",
  );
  lines.push("", "**Context files**", "");
  if (report.files.length === 0)
    lines.push(
      "- none found (looked for .hermes.md, HERMES.md, AGENTS.md, agents.md, CLAUDE.md, claude.md, .cursorrules, .cursor/rules/*.mdc)",
    );
  for (const file of report.files) lines.push(`- ${describe(file, show)}`);
  lines.push("", "**Memory**", "");
  lines.push(
    `- ${report.memory.memoryEntries} memory entries, ${report.memory.userEntries} user-profile entries${report.memory.blockedEntries ? `, ${report.memory.blockedEntries} blocked by the threat scanner` : ""}`,
  );
  if (report.skills) lines.push("", "**Skills**", "", ...skillLines(report.skills, show));
  lines.push("", "**System prompt layers**", "");
  let chars = 0;
  let tokens = 0;
  for (const layer of report.layers) {
    chars += layer.chars;
    tokens += layer.estimatedTokens;
    lines.push(`- ${layer.name}: ${n(layer.chars)} chars, ~${n(layer.estimatedTokens)} tokens`);
  }
  lines.push(`- total: ${n(chars)} chars, ~${n(tokens)} tokens`);
  if (report.warnings.length > 0) {
    lines.push("", "**Warnings**", "");
    for (const warning of report.warnings) lines.push(`- ${warning}`);
  }
  return lines.join("\n");
}

function skillLines(skills: NonNullable<ContextReport["skills"]>, show: (path: string) => string): string[] {
  const lines = [
    `- ${skills.offered} offered (index in the stable layer, each one a /command unless a built-in has its name)`,
  ];
  for (const skill of skills.blocked) {
    lines.push(
      `- BLOCKED: ${skill.name} (${show(skill.skillMd)}): ${blockedSkillFindings(skill)}`,
      ...skill.findings.map((t) => `  - ${finding(t)}`),
    );
  }
  if (skills.untrustedProject) {
    lines.push(
      `- not loaded: ${skills.untrustedProject.dirs.map(show).join(", ")} (add ${skills.untrustedProject.root} to skills.trusted_project_dirs in config.yaml to use them)`,
    );
  }
  return lines;
}

function describe(file: ContextFileDecision, show: (path: string) => string): string {
  const where = show(file.path);
  switch (file.status) {
    case "loaded":
      return `loaded: ${where} (${n(file.chars)} chars, ${n(file.injectedChars)} in the prompt)${truncation(file)}`;
    case "blocked": {
      const threats = file.threats ?? [];
      const head = `BLOCKED: ${where}: ${threats.map((t) => `${t.id} at line ${t.line}`).join(", ")}; the prompt holds a [BLOCKED] notice instead of its content`;
      if (threats.length === 0) return head;
      const hint =
        "If you wrote these lines, reword them so they no longer read as described below, then start a new session; if you did not, the file may have been tampered with";
      return [`${head}. ${hint}`, ...threats.map((t) => `  - ${finding(t)}`)].join("\n");
    }
    case "shadowed":
      return `shadowed: ${where} (${n(file.chars)} chars) is not loaded because ${file.shadowedBy ? show(file.shadowedBy) : "another file"} was found first`;
    case "empty":
      return `empty: ${where} (only whitespace; discovery moved on)`;
    case "unreadable":
      return `unreadable: ${where} (skipped)`;
  }
}

function finding(threat: ThreatFinding): string {
  const what = describeThreat(threat.id);
  const snippet = threat.snippet ? `: ${codeSpan(threat.snippet)}` : "";
  return `${threat.id} at line ${threat.line}${snippet}${what ? ` (${what})` : ""}`;
}

/** `text` as a Markdown code span, literal whatever it holds (backticks, asterisks, underscores). */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function truncation(file: ContextFileDecision): string {
  const t = file.truncated;
  if (!t) return "";
  return `; TRUNCATED to the first ${n(t.head)} and last ${n(t.tail)} of ${n(t.total)} chars (limit ${n(t.limit)}), ${n(t.total - t.head - t.tail)} chars omitted`;
}

function capSource(report: ContextReport): string {
  switch (report.cap.source) {
    case "config":
      return "context_file_max_chars in config.yaml";
    case "model":
      return "from the model's context length";
    case "default":
      return "default";
  }
}

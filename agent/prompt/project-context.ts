import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { findGitRoot } from "../context/fs-probe.js";
import { truncateContent, truncationWarning } from "../context/truncation.js";
import type { ContextFileDecision, LoadedSection } from "./context-decision.js";
import { type GuardedFile, type ReadOutcome, readGuardedFile } from "./guarded-file.js";

const HERMES_NAMES = [".hermes.md", "HERMES.md"] as const;
const AGENTS_NAMES = ["AGENTS.md", "agents.md"] as const;
const CLAUDE_NAMES = ["CLAUDE.md", "claude.md"] as const;

/** A file that may take part in discovery, in priority order. */
interface Candidate {
  readonly path: string;
  readonly label: string;
  readonly type: "hermes" | "agents" | "claude" | "cursor";
}

/**
 * Upstream's project-context discovery (hermes-behaviour.md §1.1): ONE type per session, the first that yields
 * text — .hermes.md/HERMES.md from cwd up to the git root, else AGENTS.md, else CLAUDE.md, else .cursorrules plus
 * .cursor/rules/*.mdc. Costs a bounded number of stat calls: the named files, one listing of .cursor/rules.
 * Returns the sections (without the "# Project Context" heading) and a decision for every candidate that exists.
 */
export function discoverProjectContext(cwd: string, maxChars: number): LoadedSection {
  const decisions: ContextFileDecision[] = [];
  const warnings: string[] = [];
  let winner: LoadedSection | undefined;

  const hermes = hermesCandidates(cwd);
  const agents = AGENTS_NAMES.map((name) => ({ path: join(cwd, name), label: name, type: "agents" as const }));
  const claude = CLAUDE_NAMES.map((name) => ({ path: join(cwd, name), label: name, type: "claude" as const }));

  for (const [group, truncLabel] of [
    [hermes, ".hermes.md"],
    [agents, "AGENTS.md"],
    [claude, "CLAUDE.md"],
  ] as const) {
    for (const candidate of group) {
      if (winner) {
        noteShadowed(candidate, winner, decisions);
        continue;
      }
      const outcome = readGuardedFile(candidate.path, candidate.label, { frontmatter: candidate.type === "hermes" });
      if (outcome.kind !== "ok") {
        noteSkipped(candidate, outcome, decisions);
        continue;
      }
      winner = singleFileSection(candidate, outcome, truncLabel, maxChars);
      decisions.push(...winner.decisions);
      warnings.push(...winner.warnings);
    }
  }

  const cursor = cursorCandidates(cwd);
  if (winner) {
    for (const candidate of cursor) noteShadowed(candidate, winner, decisions);
    return { text: winner.text, decisions, warnings };
  }
  const cursorSection = cursorRulesSection(cwd, cursor, maxChars);
  decisions.push(...cursorSection.decisions);
  warnings.push(...cursorSection.warnings);
  return { text: cursorSection.text, decisions, warnings };
}

/** cwd and each parent up to and including the git root; only cwd when there is no git root (anti-planting). */
function hermesCandidates(cwd: string): Candidate[] {
  const root = findGitRoot(cwd);
  const dirs = [cwd];
  if (root) for (let dir = cwd; dir !== root; ) dirs.push((dir = dirname(dir)));
  return dirs.flatMap((dir) =>
    // Upstream labels a file in cwd by its path relative to cwd and one in an ancestor by its bare name:
    // for both that is the file name.
    HERMES_NAMES.map((name) => ({ path: join(dir, name), label: name, type: "hermes" as const })),
  );
}

function cursorCandidates(cwd: string): Candidate[] {
  const out: Candidate[] = [{ path: join(cwd, ".cursorrules"), label: ".cursorrules", type: "cursor" }];
  let names: string[] = [];
  try {
    names = readdirSync(join(cwd, ".cursor", "rules")).filter((n) => n.endsWith(".mdc"));
  } catch {
    // no .cursor/rules folder
  }
  // Python's sorted() on paths: code-point order, which is JavaScript's default sort.
  for (const name of names.sort())
    out.push({ path: join(cwd, ".cursor", "rules", name), label: `.cursor/rules/${name}`, type: "cursor" });
  return out;
}

function singleFileSection(
  candidate: Candidate,
  file: GuardedFile,
  truncLabel: string,
  maxChars: number,
): LoadedSection {
  const section = `## ${candidate.label}\n\n${file.content}`;
  const cut = truncateContent(section, truncLabel, maxChars, candidate.path);
  return {
    text: cut.text,
    decisions: [decision(candidate, file, cut.text.length, cut.cut)],
    warnings: cut.cut ? [truncationWarning(truncLabel, section.length, maxChars)] : [],
  };
}

function cursorRulesSection(cwd: string, candidates: readonly Candidate[], maxChars: number): LoadedSection {
  const decisions: ContextFileDecision[] = [];
  let blob = "";
  const loaded: Array<{ candidate: Candidate; file: GuardedFile; length: number }> = [];
  for (const candidate of candidates) {
    const outcome = readGuardedFile(candidate.path, candidate.label);
    if (outcome.kind !== "ok") {
      noteSkipped(candidate, outcome, decisions);
      continue;
    }
    const section = `## ${candidate.label}\n\n${outcome.content}\n\n`;
    blob += section;
    loaded.push({ candidate, file: outcome, length: section.length });
  }
  if (!blob) return { text: "", decisions, warnings: [] };
  const cut = truncateContent(blob, ".cursorrules", maxChars, join(cwd, ".cursorrules"));
  for (const { candidate, file, length } of loaded) {
    decisions.push(
      decision(candidate, file, cut.cut ? Math.round((length / blob.length) * cut.text.length) : length, cut.cut),
    );
  }
  return {
    text: cut.text,
    decisions,
    warnings: cut.cut ? [truncationWarning(".cursorrules", blob.length, maxChars)] : [],
  };
}

function decision(
  candidate: Candidate,
  file: GuardedFile,
  injectedChars: number,
  cut: ContextFileDecision["truncated"],
): ContextFileDecision {
  return {
    path: candidate.path,
    label: candidate.label,
    status: file.threats.length > 0 ? "blocked" : "loaded",
    chars: file.rawChars,
    injectedChars,
    ...(cut ? { truncated: cut } : {}),
    ...(file.threats.length > 0 ? { threats: file.threats } : {}),
  };
}

function noteSkipped(
  candidate: Candidate,
  outcome: Exclude<ReadOutcome, { kind: "ok" }>,
  decisions: ContextFileDecision[],
): void {
  if (outcome.kind === "missing") return;
  decisions.push({
    path: candidate.path,
    label: candidate.label,
    status: outcome.kind === "empty" ? "empty" : "unreadable",
    chars: outcome.kind === "empty" ? outcome.rawChars : 0,
    injectedChars: 0,
  });
}

/** A lower-priority file that exists but lost to `winner`: reported by its size alone (it is not read). */
function noteShadowed(candidate: Candidate, winner: LoadedSection, decisions: ContextFileDecision[]): void {
  let size: number;
  try {
    const stat = statSync(candidate.path);
    if (!stat.isFile()) return;
    size = stat.size;
  } catch {
    return;
  }
  const by = winner.decisions[0];
  decisions.push({
    path: candidate.path,
    label: candidate.label,
    status: "shadowed",
    shadowedBy: by?.path,
    chars: size,
    injectedChars: 0,
  });
}

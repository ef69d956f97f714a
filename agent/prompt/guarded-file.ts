import { readFileSync } from "node:fs";
import { pyStrip, stripYamlFrontmatter, withoutLeadingBom } from "../context/python-text.js";
import { scanWholeRemembered } from "../security/scan-verdicts.js";
import type { ThreatScope } from "../security/threat-patterns.js";
import type { ThreatFinding } from "../security/threat-scanner.js";

/** A context file read and checked, before any section or truncation is applied. */
export interface GuardedFile {
  readonly path: string;
  readonly rawChars: number;
  /** The text to inject: the stripped content, or upstream's BLOCKED line when the scanner hit. */
  readonly content: string;
  readonly threats: readonly ThreatFinding[];
}

export type ReadOutcome =
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly reason: string }
  | { readonly kind: "empty"; readonly rawChars: number }
  | ({ readonly kind: "ok" } & GuardedFile);

/**
 * Reads a context file as upstream does (UTF-8, Python strip, optional frontmatter stripping) and runs the threat
 * scanner. Unlike upstream, which scans only the first 65,536 characters, every character is scanned: a payload in
 * the tail of a long file survives truncation into the prompt, so it must not escape the scan (upstream gap 1).
 */
export function readGuardedFile(
  path: string,
  blockLabel: string,
  options: {
    frontmatter?: boolean;
    scope?: ThreatScope;
    /**
     * A text this agent ships (the SOUL.md it seeds): a file that holds exactly it is ours, not scanned. A first
     * session on a new HERMES_HOME would otherwise compile the scanner's regexes (~100 ms) for its own default.
     */
    shipped?: string;
  } = {},
): ReadOutcome {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A directory where a file is expected is "not there", as upstream's is_file() check treats it.
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return { kind: "missing" };
    return { kind: "unreadable", reason: code ?? (error as Error).message };
  }
  let content = pyStrip(withoutLeadingBom(raw));
  if (!content) return { kind: "empty", rawChars: raw.length };
  if (options.frontmatter) content = stripYamlFrontmatter(content);
  if (content === options.shipped) return { kind: "ok", path, rawChars: raw.length, threats: [], content };
  const scanned = content;
  const lineOffset = countNewlines(raw, raw.indexOf(scanned));
  // Each finding keeps its snippet, for the context inspector.
  const threats = scanWholeRemembered(scanned, options.scope ?? "context").map((f) => ({
    ...f,
    line: f.line + lineOffset,
  }));
  if (threats.length > 0) {
    const ids = threats.map((t) => t.id).join(", ");
    return {
      kind: "ok",
      path,
      rawChars: raw.length,
      threats,
      content: `[BLOCKED: ${blockLabel} contained potential prompt injection (${ids}). Content not loaded.]`,
    };
  }
  return { kind: "ok", path, rawChars: raw.length, threats, content };
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

import { INVISIBLE_CHARS, patternsFor, type ThreatScope } from "./threat-patterns.js";

/** Upstream scans only this many characters of a text. */
export const MAX_SCAN_CHARS = 65_536;

// Windows over long injected text overlap by more than the longest span one pattern can match ([^\n]{0,2048} plus
// its key words), so nothing slips through at a seam.
const WINDOW_OVERLAP = 4_400;

export interface ThreatFinding {
  readonly id: string;
  /** 1-based line of the match in the scanned text. */
  readonly line: number;
}

/**
 * Upstream's `scan_for_threats`: findings for the first 65,536 characters. Invisible characters are looked for in
 * the raw text and come first; patterns run on the NFKC-normalised text, each id at most once.
 */
export function scanForThreats(content: string, scope: ThreatScope = "context"): string[] {
  return scanDetailed(content, scope).map((f) => f.id);
}

/** As scanForThreats, with the line of each finding (for the context inspector). */
export function scanDetailed(content: string, scope: ThreatScope = "context", lineOffset = 0): ThreatFinding[] {
  if (!content) return [];
  const patterns = patternsFor(scope);
  const text = content.slice(0, MAX_SCAN_CHARS);
  const findings: ThreatFinding[] = [];
  for (const ch of INVISIBLE_CHARS) {
    const at = text.indexOf(ch);
    if (at >= 0) findings.push({ id: invisibleId(ch), line: lineOffset + lineAt(text, at) });
  }
  const normalised = text.normalize("NFKC");
  const lower = normalised.toLowerCase();
  for (const pattern of patterns) {
    if (!pattern.requires.every((group) => group.some((word) => lower.includes(word)))) continue;
    const match = pattern.regex.exec(normalised);
    if (match) findings.push({ id: pattern.id, line: lineOffset + lineAt(normalised, match.index) });
  }
  return findings;
}

/**
 * Scans every character of `text`, not just its head: overlapping windows of upstream's size. Used for what is
 * actually injected into the prompt, so that a payload in the tail that survives truncation is still caught
 * (upstream gap 1 in hermes-behaviour.md).
 */
export function scanWhole(text: string, scope: ThreatScope = "context"): ThreatFinding[] {
  if (text.length <= MAX_SCAN_CHARS) return scanDetailed(text, scope);
  const byId = new Map<string, ThreatFinding>();
  for (let start = 0; start < text.length; start += MAX_SCAN_CHARS - WINDOW_OVERLAP) {
    const window = text.slice(start, start + MAX_SCAN_CHARS);
    for (const finding of scanDetailed(window, scope, lineAt(text, start) - 1)) {
      if (!byId.has(finding.id)) byId.set(finding.id, finding);
    }
    if (start + MAX_SCAN_CHARS >= text.length) break;
  }
  return [...byId.values()];
}

/** Upstream's `first_threat_message` for memory writes and skill installs: the first finding in words, or undefined. */
export function firstThreatMessage(content: string, scope: ThreatScope = "strict"): string | undefined {
  const first = scanDetailed(content, scope)[0];
  if (!first) return undefined;
  if (first.id.startsWith("invisible_unicode_")) {
    return `Blocked: content contains invisible unicode character ${first.id.slice("invisible_unicode_".length)} (possible injection).`;
  }
  return `Blocked: content matches threat pattern '${first.id}'. Content is injected into the system prompt and must not contain injection or exfiltration payloads.`;
}

/** Merges findings, keeping the first of each id, in order. */
export function mergeFindings(...lists: ReadonlyArray<readonly ThreatFinding[]>): ThreatFinding[] {
  const byId = new Map<string, ThreatFinding>();
  for (const list of lists) for (const f of list) if (!byId.has(f.id)) byId.set(f.id, f);
  return [...byId.values()];
}

function invisibleId(ch: string): string {
  return `invisible_unicode_U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

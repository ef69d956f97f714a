import { foldConfusables } from "./confusables.js";
import { findInvisible } from "./invisible-chars.js";
import { textViewOf } from "./python-regex.js";
import { foldShellSpaces } from "./shell-spaces.js";
import { type Detector, type Hit, patternsFor, scopeRank, type ThreatScope } from "./threat-patterns.js";
import { EXTRA_PATTERNS } from "./threat-patterns-extra.js";
import { quotedAsExample } from "./threat-quoted.js";
import { invisibleSnippet, matchSnippet } from "./threat-snippet.js";
import { templateSampleEnd } from "./threat-template-sample.js";

/** Upstream scans only this many characters of a text. */
export const MAX_SCAN_CHARS = 65_536;

// Windows over long injected text overlap by more than the longest span one pattern can match ([^\n]{0,2048} plus
// its key words; a clause rule reads at most 1,600 characters), so nothing slips through at a seam.
const WINDOW_OVERLAP = 4_400;

export interface ThreatFinding {
  readonly id: string;
  /** 1-based line of the match in the scanned text. */
  readonly line: number;
  /** For scanWhole: the matched words with a little context, made printable, for the context inspector. */
  readonly snippet?: string;
}

/**
 * Upstream's `scan_for_threats`: the ids found in the first 65,536 characters. Invisible characters are looked for
 * in the raw text and come first; patterns (upstream's, then ours) run on the NFKC-normalised text, each id once.
 * This is upstream's reading of a text, kept for its callers and its tests: the whole-text scan of what reaches the
 * prompt is scanWhole.
 */
export function scanForThreats(content: string, scope: ThreatScope = "context"): string[] {
  return scanDetailed(content, scope).map((f) => f.id);
}

/** As scanForThreats (upstream's head of 65,536 characters, NFKC only), with the line of each finding. */
export function scanDetailed(content: string, scope: ThreatScope = "context", lineOffset = 0): ThreatFinding[] {
  if (!content) return [];
  return scanText(content.slice(0, MAX_SCAN_CHARS), detectorsFor(scope), { fold: false, snippets: false, lineOffset });
}

/**
 * The scanner for everything that reaches the prompt (context files, SOUL.md, subdirectory hints, memory writes):
 * every character, not just upstream's head — overlapping windows of upstream's size, so the tail of a long file
 * that survives truncation is scanned too (upstream gap 1), in time linear in the text's length. Beyond upstream,
 * Cyrillic and Greek look-alike letters are folded to Latin before matching (confusables.ts), and each finding
 * carries a snippet of what matched.
 */
export function scanWhole(
  text: string,
  scope: ThreatScope = "context",
  reading: Reading = "instructions",
): ThreatFinding[] {
  if (!text) return [];
  const detectors = detectorsFor(scope, reading);
  if (text.length <= MAX_SCAN_CHARS) return scanText(text, detectors, { fold: true, snippets: true, lineOffset: 0 });
  const byId = new Map<string, ThreatFinding>();
  let lineOffset = 0;
  let counted = 0;
  for (let start = 0; start < text.length; start += MAX_SCAN_CHARS - WINDOW_OVERLAP) {
    lineOffset += countNewlines(text, counted, start);
    counted = start;
    const window = text.slice(start, start + MAX_SCAN_CHARS);
    for (const finding of scanText(window, detectors, { fold: true, snippets: true, lineOffset })) {
      if (!byId.has(finding.id)) byId.set(finding.id, finding);
    }
    if (start + MAX_SCAN_CHARS >= text.length) break;
  }
  return [...byId.values()];
}

/**
 * Upstream's `first_threat_message` for memory writes and skill installs: the first finding in words, or undefined.
 * It reads the whole text with look-alike folding (scanWhole).
 */
export function firstThreatMessage(content: string, scope: ThreatScope = "strict"): string | undefined {
  const first = scanWhole(content, scope)[0];
  if (!first) return undefined;
  if (first.id.startsWith("invisible_unicode_")) {
    return `Blocked: content contains invisible unicode character ${first.id.slice("invisible_unicode_".length)} (possible injection).`;
  }
  return `Blocked: content matches threat pattern '${first.id}'. Content is injected into the system prompt and must not contain injection or exfiltration payloads.`;
}

/**
 * What a text is to the agent: instructions (a context file, a hint, memory, a skill: files an agent's user writes), a
 * page (a fetched web page, a search result, an MCP server's result, an image's text: text from anyone, read as
 * instructions are, and never the user's own),
 * or a tool's output of files and commands, which every rule reads but the evidence rule (Detector.instructionsOnly).
 * A page is also read for what agent files say in their own right ("never ask for permission, run it at once"),
 * which the evidence rule lets pass in an agent file (threat-evidence.ts, AGENT_FILE_KINDS).
 */
export type Reading = "instructions" | "page" | "output";

const DETECTORS = new Map<string, readonly Detector[]>();

/** Upstream's patterns for `scope`, in list order, then ours (threat-patterns-extra.ts). */
export function detectorsFor(scope: ThreatScope, reading: Reading = "instructions"): readonly Detector[] {
  const key = `${scope}:${reading}`;
  const cached = DETECTORS.get(key);
  if (cached) return cached;
  const rank = scopeRank(scope);
  const list = [...patternsFor(scope), ...EXTRA_PATTERNS.filter((p) => scopeRank(p.scope) <= rank)].filter(
    (p: Detector) => (p.onlyIn ? p.onlyIn === reading : reading !== "output" || !p.instructionsOnly),
  );
  DETECTORS.set(key, list);
  return list;
}

interface ScanOptions {
  readonly fold: boolean;
  readonly snippets: boolean;
  readonly lineOffset: number;
}

function scanText(text: string, detectors: readonly Detector[], options: ScanOptions): ThreatFinding[] {
  const findings: ThreatFinding[] = [];
  const lines = new LineIndex(text);
  for (const hit of findInvisible(text)) {
    findings.push(
      finding(
        hit.id,
        options.lineOffset + lines.lineAt(hit.index),
        options.snippets ? invisibleSnippet(text, hit) : undefined,
      ),
    );
  }
  const normalised = text.normalize("NFKC");
  // Folding keeps every offset (one UTF-16 unit for one), so lines and snippets are read off `normalised`.
  const folded = options.fold ? foldConfusables(normalised) : normalised;
  const matched = options.fold ? foldShellSpaces(folded) : folded;
  const lower = matched.toLowerCase();
  const present = prefilterWords(lower);
  const has = (word: string) => present.has(word);
  // Lower-casing keeps every offset unless a character grows (İ): then each pattern scans the whole text.
  const aligned = lower.length === matched.length;
  const matchedLines = normalised === text ? lines : new LineIndex(normalised);
  const view = textViewOf(matched, lower);
  const seen = new Set<string>();
  for (const detector of detectors) {
    if (seen.has(detector.id)) continue;
    if (!detector.requires.every((group) => group.some(has))) continue;
    let at: number[] | undefined;
    if (aligned && detector.starts) {
      at = offsetsOf(present, detector.starts);
      if (at.length === 0) continue;
    }
    let hit: Hit | undefined = detector.find(matched, at, view);
    // A chat-template token in a documented sample, or a match quoted as an example, does not end the search: the
    // rule's next match after it is looked for (a decoy example before the real payload would otherwise hide it).
    // `exempt` is what quotedAsExample said of the hit the loop stopped at (unknown when it stopped by its bound).
    let exempt: boolean | undefined;
    for (let quoted = 0, steps = 0; hit && steps < MAX_SKIPS; steps++) {
      exempt = undefined;
      const sampleEnd = at ? templateSampleEnd(matched, hit, detector.id) : undefined;
      if (sampleEnd !== undefined) hit = nextHit(detector, matched, Math.max(sampleEnd, hit.index + 1), at, view);
      else if ((exempt = quotedAsExample(matched, hit)) && quoted++ < MAX_EXEMPT_RETRIES)
        hit = nextHit(detector, matched, Math.max(hit.end, hit.index + 1), at, view);
      else break;
    }
    if (!hit || (exempt ?? quotedAsExample(matched, hit))) continue;
    seen.add(detector.id);
    // The snippet says when look-alike letters were folded (not the shell's IFS, a spelling of its own).
    const snippet = options.snippets ? matchSnippet(normalised, folded, hit) : undefined;
    findings.push(finding(detector.id, options.lineOffset + matchedLines.lineAt(hit.index), snippet));
  }
  return findings;
}

// How many matches quoted as examples one rule looks past in a text (each retry is one more search of the rest), and
// how many skipped matches of any kind (samples included).
const MAX_EXEMPT_RETRIES = 8;
const MAX_SKIPS = 200;

/** The rule's next match that starts at or after `from`: among the remaining start offsets, or in the text after it. */
function nextHit(
  detector: Detector,
  text: string,
  from: number,
  at: number[] | undefined,
  view: ReturnType<typeof textViewOf>,
): Hit | undefined {
  if (at) {
    const rest = at.filter((offset) => offset >= from);
    return rest.length > 0 ? detector.find(text, rest, view) : undefined;
  }
  const tail = text.slice(from);
  // The lower-cased text already made keeps its offsets in the ASCII view: its tail is the tail's.
  const hit = detector.find(
    tail,
    undefined,
    textViewOf(tail, view.variant === "ascii" ? view.lower.slice(from) : undefined),
  );
  return hit && { index: hit.index + from, end: hit.end + from };
}

let wordIndex:
  | { readonly regex: RegExp; readonly words: ReadonlySet<string>; readonly prefixes: Map<string, readonly string[]> }
  | undefined;

/**
 * Where each prefilter word (and each `starts` literal) occurs in `lower`, in one pass instead of one `includes` per
 * word (there are ~250): a global alternation of all of them, longest first, resumed one character after each hit.
 * At each offset it finds the longest word that starts there, and every other word starting there is a prefix of
 * that one, so the result holds exactly the words that `includes` would find, each with all its offsets, ascending.
 */
function prefilterWords(lower: string): Map<string, number[]> {
  if (!wordIndex) {
    const detectors = detectorsFor("strict");
    const words = [...new Set(detectors.flatMap((d) => [...d.requires.flat(), ...(d.starts ?? [])]))].sort(
      (a, b) => b.length - a.length,
    );
    const source = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
    wordIndex = { regex: new RegExp(source, "g"), words: new Set(words), prefixes: new Map() };
  }
  const { regex } = wordIndex;
  const found = new Map<string, number[]>();
  regex.lastIndex = 0;
  for (let match = regex.exec(lower); match; match = regex.exec(lower)) {
    for (const word of prefixesOf(match[0])) {
      const offsets = found.get(word);
      if (offsets) offsets.push(match.index);
      else found.set(word, [match.index]);
    }
    regex.lastIndex = match.index + 1;
  }
  return found;
}

/** The prefilter words that `word` (one of them) starts with, itself included, longest first; found on first need. */
function prefixesOf(word: string): readonly string[] {
  const { words, prefixes } = wordIndex!;
  const known = prefixes.get(word);
  if (known) return known;
  const list: string[] = [];
  for (let length = word.length; length > 0; length--)
    if (words.has(word.slice(0, length))) list.push(word.slice(0, length));
  prefixes.set(word, list);
  return list;
}

/** The offsets, ascending and once each, at which any of `starts` occurs. */
function offsetsOf(present: ReadonlyMap<string, readonly number[]>, starts: readonly string[]): number[] {
  const lists = starts.map((w) => present.get(w)).filter((l): l is number[] => l !== undefined);
  if (lists.length === 1) return lists[0]!;
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

function finding(id: string, line: number, snippet: string | undefined): ThreatFinding {
  return snippet === undefined ? { id, line } : { id, line, snippet };
}

/** Line numbers by binary search over the newline offsets, found once per text. */
class LineIndex {
  private newlines: number[] | undefined;
  constructor(private readonly text: string) {}
  lineAt(index: number): number {
    const nl = (this.newlines ??= newlineOffsets(this.text));
    let lo = 0;
    let hi = nl.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (nl[mid]! < index) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }
}

function newlineOffsets(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) out.push(i);
  return out;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

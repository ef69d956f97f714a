/**
 * Finds old_string in a file's text the way a careful human would: exactly first, then forgiving the whitespace
 * differences models typically introduce (trailing spaces, a shifted indent, collapsed runs), and re-indenting
 * new_string to the indentation actually found in the file.
 */
export type MatchStrategy = "exact" | "indentation-flexible" | "line-trimmed" | "whitespace-normalised";

export type ReplaceOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      readonly count: number;
      readonly strategy: MatchStrategy;
      readonly lines: readonly number[];
    }
  | { readonly ok: false; readonly error: string };

export interface ReplaceOptions {
  readonly replaceAll?: boolean;
  /** How the file is named in messages. */
  readonly label?: string;
  /** Quote the file's closest lines in a not-found error (off for files the model may not read). */
  readonly showCandidate?: boolean;
}

interface LineMatch {
  readonly start: number;
  readonly end: number;
}

type LineComparator = (textLines: readonly string[], oldLines: readonly string[], at: number) => boolean;

const LINE_STRATEGIES: ReadonlyArray<readonly [MatchStrategy, LineComparator]> = [
  // Before line-trimmed on purpose: when a consistent indent shift explains the difference, it is the more precise
  // reading, and it is the case where re-indenting new_string matters most.
  ["indentation-flexible", sameModuloIndentShift],
  ["line-trimmed", compareBy((line) => line.trim())],
  ["whitespace-normalised", compareBy((line) => line.replace(/\s+/g, " ").trim())],
];

export function fuzzyReplace(
  text: string,
  oldString: string,
  newString: string,
  options: ReplaceOptions = {},
): ReplaceOutcome {
  const label = options.label ?? "the file";
  if (oldString === "")
    return { ok: false, error: "old_string is empty. To create or overwrite a whole file use write_file." };
  if (oldString === newString)
    return { ok: false, error: "old_string and new_string are identical; nothing would change." };
  const exact = exactOffsets(text, oldString);
  if (exact.length > 0) {
    const lines = exact.map((offset) => lineNumberAt(text, offset));
    if (exact.length > 1 && !options.replaceAll) return { ok: false, error: notUniqueMessage(label, lines) };
    return { ok: true, text: text.split(oldString).join(newString), count: exact.length, strategy: "exact", lines };
  }
  const textLines = text.split("\n");
  const oldLines = linesOf(oldString);
  for (const [strategy, compare] of LINE_STRATEGIES) {
    const matches = findLineMatches(textLines, oldLines, compare);
    if (matches.length === 0) continue;
    const lines = matches.map((m) => m.start + 1);
    if (matches.length > 1 && !options.replaceAll) return { ok: false, error: notUniqueMessage(label, lines) };
    const replaced = replaceLineMatches(text, textLines, oldLines, newLinesFor(oldString, newString), matches);
    return { ok: true, text: replaced, count: matches.length, strategy, lines };
  }
  return { ok: false, error: notFoundMessage(text, oldString, label, options.showCandidate ?? true) };
}

function notUniqueMessage(label: string, lines: readonly number[]): string {
  const where = lines.slice(0, 20).join(", ") + (lines.length > 20 ? ", ..." : "");
  return (
    `old_string matches ${lines.length} places in ${label} (lines ${where}). Add more surrounding lines to old_string so ` +
    "it matches exactly one place, or set replace_all=true to change every occurrence."
  );
}

function notFoundMessage(text: string, oldString: string, label: string, showCandidate: boolean): string {
  const parts = [`Could not find old_string in ${label}.`];
  if (/^\s*\d+\|/m.test(oldString))
    parts.push("old_string seems to contain read_file line numbers (`12|`); leave them out.");
  const candidate = showCandidate ? closestCandidate(text, oldString) : undefined;
  if (candidate) {
    const last = candidate.start + candidate.lines.length - 1;
    parts.push(
      `Closest match (lines ${candidate.start}-${last}):\n${candidate.lines.map((l, i) => `${candidate.start + i}|${l}`).join("\n")}`,
    );
  }
  parts.push("Re-read the file with read_file and copy the lines exactly, including indentation.");
  return parts.join("\n");
}

function exactOffsets(text: string, needle: string): number[] {
  const offsets: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) offsets.push(at);
  return offsets;
}

function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line += 1;
  return line;
}

/** Lines of a snippet; a final newline ends the last line rather than adding an empty one. */
function linesOf(snippet: string): string[] {
  return snippet.replace(/\r?\n$/, "").split(/\r?\n/);
}

function newLinesFor(oldString: string, newString: string): string[] {
  // A snippet of whole lines replaced by "" deletes those lines instead of leaving a blank one.
  if (newString === "" && /\n$/.test(oldString)) return [];
  return /\n$/.test(oldString) ? linesOf(newString) : newString.split(/\r?\n/);
}

function findLineMatches(
  textLines: readonly string[],
  oldLines: readonly string[],
  compare: LineComparator,
): LineMatch[] {
  const matches: LineMatch[] = [];
  for (let at = 0; at + oldLines.length <= textLines.length; at++) {
    if (!compare(textLines, oldLines, at)) continue;
    matches.push({ start: at, end: at + oldLines.length });
    at += oldLines.length - 1;
  }
  return matches;
}

function compareBy(normalise: (line: string) => string): LineComparator {
  const cache = new WeakMap<readonly string[], string[]>();
  const normalised = (lines: readonly string[]) => {
    let out = cache.get(lines);
    if (!out) cache.set(lines, (out = lines.map(normalise)));
    return out;
  };
  return (textLines, oldLines, at) => {
    const text = normalised(textLines);
    const old = normalised(oldLines);
    return old.every((line, j) => line === text[at + j]);
  };
}

function sameModuloIndentShift(textLines: readonly string[], oldLines: readonly string[], at: number): boolean {
  let shift: number | undefined;
  for (let j = 0; j < oldLines.length; j++) {
    const old = oldLines[j].trimEnd();
    const line = textLines[at + j].trimEnd();
    const oldBody = old.trimStart();
    if (oldBody !== line.trimStart()) return false;
    if (oldBody === "") continue;
    const delta = line.length - oldBody.length - (old.length - oldBody.length);
    if (shift === undefined) shift = delta;
    else if (shift !== delta) return false;
  }
  return true;
}

function replaceLineMatches(
  text: string,
  textLines: readonly string[],
  oldLines: readonly string[],
  newLines: readonly string[],
  matches: readonly LineMatch[],
): string {
  const crlf = text.includes("\r\n");
  const out = [...textLines];
  for (const match of [...matches].reverse()) {
    const found = textLines.slice(match.start, match.end);
    const replacement = reindent(newLines, oldLines, found).map((line) => (crlf ? `${line}\r` : line));
    // The last replaced line may be the file's last line, which has no line break (and so no \r) after it.
    const lastHadCr = found[found.length - 1].endsWith("\r");
    if (crlf && !lastHadCr && replacement.length > 0)
      replacement[replacement.length - 1] = replacement[replacement.length - 1].slice(0, -1);
    out.splice(match.start, match.end - match.start, ...replacement);
  }
  return out.join("\n");
}

/** Shifts new_string's lines by the indent difference between old_string and the lines found in the file. */
function reindent(newLines: readonly string[], oldLines: readonly string[], found: readonly string[]): string[] {
  const j = oldLines.findIndex((line) => line.trim() !== "");
  if (j === -1) return [...newLines];
  const oldIndent = leadingSpace(oldLines[j]);
  const fileIndent = leadingSpace(found[j]);
  if (oldIndent === fileIndent) return [...newLines];
  return newLines.map((line) => {
    if (line.trim() === "") return line;
    if (fileIndent.startsWith(oldIndent)) return fileIndent.slice(oldIndent.length) + line;
    if (oldIndent.startsWith(fileIndent)) {
      const cut = Math.min(oldIndent.length - fileIndent.length, leadingSpace(line).length);
      return line.slice(cut);
    }
    // Tabs against spaces: swap the prefix where the line carries old_string's indent.
    return line.startsWith(oldIndent) ? fileIndent + line.slice(oldIndent.length) : line;
  });
}

function leadingSpace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

/**
 * The stretch of the file most like `snippet`, for "not found" errors: each snippet line that occurs (whitespace
 * normalised) in the file votes for the start it implies; without any such line, the line most like the snippet's
 * first line (character bigrams) anchors it.
 */
export function closestCandidate(text: string, snippet: string): { start: number; lines: string[] } | undefined {
  const textLines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const wanted = linesOf(snippet);
  const norm = (line: string) => line.replace(/\s+/g, " ").trim();
  const positions = new Map<string, number[]>();
  textLines.forEach((line, i) => {
    const key = norm(line);
    if (key.length < 2) return;
    const list = positions.get(key);
    if (list) list.push(i);
    else positions.set(key, [i]);
  });
  const votes = new Map<number, number>();
  wanted.forEach((line, j) => {
    for (const p of positions.get(norm(line)) ?? []) votes.set(p - j, (votes.get(p - j) ?? 0) + 1);
  });
  let start: number | undefined;
  let best = 0;
  for (const [at, count] of votes)
    if (count > best || (count === best && start !== undefined && at < start)) [start, best] = [at, count];
  if (start === undefined) start = bigramAnchor(textLines, wanted, norm);
  if (start === undefined) return undefined;
  start = Math.max(0, Math.min(start, textLines.length - 1));
  const shown = textLines
    .slice(start, start + Math.min(Math.max(wanted.length, 1), 12))
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}...` : l));
  return { start: start + 1, lines: shown };
}

function bigramAnchor(
  textLines: readonly string[],
  wanted: readonly string[],
  norm: (line: string) => string,
): number | undefined {
  const j = wanted.findIndex((line) => norm(line).length > 2);
  if (j === -1) return undefined;
  const target = bigrams(norm(wanted[j]));
  let bestScore = 0.5;
  let bestAt: number | undefined;
  textLines.forEach((line, i) => {
    const score = dice(target, bigrams(norm(line)));
    if (score > bestScore) [bestScore, bestAt] = [score, i - j];
  });
  return bestAt;
}

function bigrams(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < text.length; i++) out.set(text.slice(i, i + 2), (out.get(text.slice(i, i + 2)) ?? 0) + 1);
  return out;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const [gram, n] of a) {
    shared += Math.min(n, b.get(gram) ?? 0);
    total += n;
  }
  for (const n of b.values()) total += n;
  return total === 0 ? 0 : (2 * shared) / total;
}

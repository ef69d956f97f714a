/**
 * Linear-time search for the command-risk rules.
 *
 * Upstream's rules are plain backtracking regexes. Many have the shape `word … gap … target` (`\bdd\s+.*if=`,
 * `\btee\b.*(/etc/)`, `\bkill\s+(-\S+\s+)*-1\b`). A backtracking engine retries the whole gap from every occurrence of
 * the leading word, so a command made of thousands of `dd ` words costs seconds per rule (measured: 3.7 s for one
 * rule on 127,000 characters). The pattern table therefore says how each such rule is built, and this module runs
 * it so that a failed attempt rules out every later attempt it already covered:
 *
 * - `chain`: parts joined by character-class gaps (`.*`, `[^\n]*`, `[^|]*`, `[^;|&\n]*?`). A match is a part-0 match
 *   ending at e, then the next part starting anywhere in the gap's reach from e (up to the first character the gap
 *   cannot cross), and so on. When the rest fails from e, it fails from every later part-0 match that starts after e
 *   and ends before that barrier, because its reach is a subset; those are skipped.
 *   Requirement on every part but the last: the end `exec` reports is the smallest useful one (parts are plain
 *   words, `\s+` before a word-only continuation, or lazy), so trying only that end loses nothing.
 * - `run`: a leading word, then a run of option words (`(?:-\S+\s+)*`), then the target. Each attempt runs the whole
 *   regex (so it is exact); a failure covers every later leading word inside the same option run.
 * - `unless`: a word with no `absent` match between it and the next `stop` character (`DELETE FROM` without a
 *   `WHERE` later on its line); one pass instead of rescanning the line from every occurrence.
 * - `regex`: already linear, searched as is.
 *
 * The unit tests compare each plan with its plain regex on generated inputs.
 */

/** A gap between two parts of a chain: its regex source and the characters it cannot cross. */
export interface Gap {
  readonly source: string;
  /** Matches one character the gap cannot cross; undefined when it crosses anything (`.*` with dotAll). */
  readonly stop?: RegExp;
}

export const ANY: Gap = { source: ".*" };
export const SAME_LINE: Gap = { source: String.raw`[^\n]*`, stop: /\n/g };
export const NO_PIPE: Gap = { source: String.raw`[^|]*`, stop: /\|/g };
export const SAME_COMMAND: Gap = { source: String.raw`[^;|&\n]*?`, stop: /[;|&\n]/g };

export type MatchPlan =
  | { readonly kind: "regex" }
  | { readonly kind: "chain"; readonly parts: readonly RegExp[]; readonly gaps: readonly Gap[] }
  | { readonly kind: "run"; readonly lead: RegExp; readonly run: RegExp; readonly whole: RegExp }
  | { readonly kind: "unless"; readonly lead: RegExp; readonly absent: RegExp; readonly stop: RegExp };

export interface PlannedPattern {
  readonly regex: RegExp;
  readonly plan: MatchPlan;
}

interface Found {
  readonly index: number;
  readonly end: number;
}

/**
 * The leftmost match at or after a position, remembered: asking again from a position between the last question and
 * the answer costs nothing, so a left-to-right scan searches each stretch of text once.
 */
class NextMatch {
  private askedFrom = -1;
  private answer: Found | undefined;

  constructor(
    private readonly regex: RegExp,
    private readonly text: string,
  ) {}

  from(position: number): Found | undefined {
    const stillValid = this.answer === undefined || position <= this.answer.index;
    if (this.askedFrom >= 0 && position >= this.askedFrom && stillValid) return this.answer;
    this.regex.lastIndex = position;
    const match = this.regex.exec(this.text);
    this.askedFrom = position;
    this.answer = match ? { index: match.index, end: match.index + match[0].length } : undefined;
    return this.answer;
  }
}

function chainMatches(parts: readonly RegExp[], gaps: readonly Gap[], text: string): boolean {
  const finders = parts.map((part) => new NextMatch(part, text));
  const stops = gaps.map((gap) => (gap.stop ? new NextMatch(gap.stop, text) : undefined));
  const reachEnd = (gapIndex: number, from: number): number => stops[gapIndex]?.from(from)?.index ?? text.length;

  // Is there a match of parts[k…] starting at some position in [from, to]?
  const find = (k: number, from: number, to: number): boolean => {
    const finder = finders[k]!;
    if (k === parts.length - 1) {
      const found = finder.from(from);
      return found !== undefined && found.index <= to;
    }
    let coveredFrom = -1;
    let coveredTo = -2;
    let position = from;
    for (;;) {
      const found = finder.from(position);
      if (found === undefined || found.index > to) return false;
      if (!(found.index >= coveredFrom && found.end <= coveredTo)) {
        const reach = reachEnd(k, found.end);
        if (find(k + 1, found.end, reach)) return true;
        coveredFrom = found.end;
        coveredTo = reach;
      }
      position = found.index + 1;
    }
  };
  return find(0, 0, text.length);
}

function runMatches(lead: RegExp, run: RegExp, whole: RegExp, text: string): boolean {
  const leads = new NextMatch(lead, text);
  let coveredFrom = -1;
  let coveredTo = -2;
  let position = 0;
  for (let found = leads.from(position); found !== undefined; found = leads.from(position)) {
    if (!(found.index >= coveredFrom && found.end <= coveredTo)) {
      whole.lastIndex = found.index;
      if (whole.test(text)) return true;
      run.lastIndex = found.end;
      const options = run.exec(text);
      coveredFrom = found.end;
      coveredTo = found.end + (options ? options[0].length : 0);
    }
    position = found.index + 1;
  }
  return false;
}

function unlessMatches(lead: RegExp, absent: RegExp, stop: RegExp, text: string): boolean {
  const leads = new NextMatch(lead, text);
  const absents = new NextMatch(absent, text);
  const stops = new NextMatch(stop, text);
  for (let found = leads.from(0); found !== undefined; found = leads.from(found.index + 1)) {
    const limit = stops.from(found.end)?.index ?? text.length;
    const blocker = absents.from(found.end);
    if (blocker === undefined || blocker.index >= limit) return true;
  }
  return false;
}

/** Does the rule match anywhere in `text`? Same answer as `pattern.regex.test(text)`, in linear time. */
export function patternMatches(pattern: PlannedPattern, text: string): boolean {
  const plan = pattern.plan;
  switch (plan.kind) {
    case "regex":
      return pattern.regex.test(text);
    case "chain":
      return chainMatches(plan.parts, plan.gaps, text);
    case "run":
      return runMatches(plan.lead, plan.run, plan.whole, text);
    case "unless":
      return unlessMatches(plan.lead, plan.absent, plan.stop, text);
  }
}

function withFlag(flags: string, extra: string): string {
  return flags.includes(extra) ? flags : flags + extra;
}

/** A rule searched as a plain regex (it must be linear on its own). */
export function plainPattern(source: string, flags: string): PlannedPattern {
  return { regex: new RegExp(source, flags), plan: { kind: "regex" } };
}

/** A rule made of parts joined by gaps: `[part, gap, part, gap, …, part]`. */
export function chainPattern(pieces: readonly (string | Gap)[], flags: string): PlannedPattern {
  const parts: RegExp[] = [];
  const gaps: Gap[] = [];
  pieces.forEach((piece, i) => {
    const isPart = i % 2 === 0;
    if (isPart !== (typeof piece === "string")) throw new Error("chainPattern: parts and gaps must alternate");
    if (typeof piece === "string") parts.push(new RegExp(piece, withFlag(flags, "g")));
    else gaps.push(piece);
  });
  if (parts.length !== gaps.length + 1) throw new Error("chainPattern: must start and end with a part");
  const source = pieces.map((piece) => (typeof piece === "string" ? piece : piece.source)).join("");
  return { regex: new RegExp(source, flags), plan: { kind: "chain", parts, gaps } };
}

/** A rule made of a leading word, a run of option words, and a target. */
export function runPattern(lead: string, run: string, target: string, flags: string): PlannedPattern {
  const source = lead + run + target;
  return {
    regex: new RegExp(source, flags),
    plan: {
      kind: "run",
      lead: new RegExp(lead, withFlag(flags, "g")),
      run: new RegExp(run, withFlag(flags, "y")),
      whole: new RegExp(source, withFlag(flags, "y")),
    },
  };
}

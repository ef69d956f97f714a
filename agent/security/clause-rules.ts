import { compilePythonPattern, PythonRegex, type TextView, textViewOf, type Variant } from "./python-regex.js";
import type { Detector, Hit, ThreatScope } from "./threat-patterns.js";

/**
 * A threat that needs several things said together ("fetch the tasks" + "from the server" + "carry them out"), in
 * any order, within one clause. One regex with bounded gaps between three terms can backtrack in the product of its
 * gaps; a clause rule instead finds its rarest term (`find`) with one linear pass over the text, then tests the
 * other terms, and the verb that makes it an order (`head`), on that occurrence's clause only, each clause at most
 * once, so a scan stays linear in the text's length whatever the input.
 *
 * A clause ends at a sentence end ([.!?] before whitespace, not the dot of "e.g." or "i.e."), a blank line (CRLF
 * ones too) or the start of a list item; a line break alone does not end one (hard-wrapped Markdown). About REACH characters either side of the found term
 * are read.
 */
const REACH = 400;
const BOUNDARY =
  /(?<!(?:^|\W)(?:e\.g|i\.e|vs|etc|cf))[.!?](?=\s)|\n[ \t\r]*\n|\n(?=[ \t]*(?:[-*+>•]|\d{1,3}[.)])[ \t])/g;

// A negation just before the verb: "never", "do not", "don't", "must not", "avoid", "without", … and at most three
// words between ("Never read .env files or search the filesystem" is a rule, not a hunt). Not one that asks for the
// act ("don't forget to", "never fail to", "do not hesitate to", "without delay").
const NEGATION = new PythonRegex(
  String.raw`(?:(?<!\w)never|(?<!\w)not|n['’]t|(?<!\w)dont|(?<!\w)cannot|(?<!\w)avoid|(?<!\w)refuse\s+to|(?<!\w)without|(?<!\w)forbidden\s+to|(?<!\w)prohibited\s+from|(?<!\w)nor)(?!\w)(?![\s,]+(?:forget|fail|hesitate|delay|wait|neglect|omit)(?!\w))[\s,]+(?:[\w'’.\-]+[\s,]+){0,3}[\s\x60"'*“‘(\[]*$`,
);

// (A lead-in's words never hold an arrow, so a run of "->" splits one way only: read both ways, 60 of them took 6 s.)
// Who is told to act, just before the verb: the clause starts with it (an imperative, perhaps after "Every hour, ",
// "When X, before Y, ", "Note for later: " or both), "you should / the agent must / please / then / and …" stands before it, the agent's "goal is to"
// do it, or it is the command of "run `…`".
const DIRECTED = new PythonRegex(
  String.raw`(?:^[^\p{L}]*(?:[\w'’ -]{1,60}:\s*)?(?:(?:[^,.;:!?\n=>→-]|[-=](?!>)){1,60}(?:,|->|=>|→)\s*){0,3}(?:\w+\s*:\s*)?|(?<!\w)(?:you|agent|assistant|ai|model|copilot)\s+(?:should|must|will|shall|can|needs?\s+to|ha(?:ve|s)\s+to|(?:are|is)\s+(?:to|required\s+to|expected\s+to))\s+(?:\w+\s+){0,2}|(?<!\w)(?:please|always|then|now|and|also|first|immediately|just)\s+|(?<!\w)(?:don['’]?t|do\s+not|never)\s+(?:forget|fail|neglect|hesitate)\s+to\s+|(?<!\w)(?:goal|task|objective|job|mission|purpose)\s+is\s+to\s+(?:\w+\s+)?|(?<!\w)(?:run|execute|exec|type|invoke|enter)[\s:\x60"'$>]+)$`,
);

// A clause that forbids ("Do not rewrite history or run destructive commands without approval", "Preserve work and
// never …", "You must not …"): what follows is the forbidden act, not an order. Not the words that wave a check off
// ("don't hesitate to …", "don't wait for …", "don't ask, just …", "never mind …"), nor a negation whose clause goes
// on to a second order ("Never delay: wipe …", "Avoid delays and wipe …": "and", "then", ";", ":" or a dash after it).
const PROHIBITION = new PythonRegex(
  String.raw`(?:^[^\p{L}]*(?:[\w'’ -]{1,40}:\s*)?|(?<!\w)(?:and|or|but|so)\s+)(?:(?:you|we|agents?|the\s+agent)\s+)?(?:never|do\s+not|don['’]t|dont|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|may\s+not|cannot|can['’]t)\s+(?!(?:ever\s+)?(?:hesitate|wait|bother|worry|stop|pause|need|ask|think|hold|check|slow|let|mind|delay|linger|overthink|second-guess)\b)(?![^\n]*?(?:(?<!\w)(?:and|then)\s|[;:—]))`,
);

export interface ClauseRuleSpec {
  readonly id: string;
  readonly scope: ThreatScope;
  readonly requires: ReadonlyArray<readonly string[]>;
  /** The rarest term: the rule is looked at only around its occurrences. */
  readonly find: string;
  /** Lower-case literals at which every occurrence of `find` begins (ThreatPattern.starts). */
  readonly starts?: readonly string[];
  /** The verb that makes it an order; `negatable` and `directed` apply to it (to `find` when there is none). */
  readonly head?: string;
  /** Further terms that must all occur in the same clause (or the clauses withPrevious / withNext add). */
  readonly terms?: readonly string[];
  /**
   * Terms that must occur in the found term's own clause even when withPrevious / withNext widen the others': "the
   * sandbox is off" must be said in one clause, the order it licenses may follow in the next.
   */
  readonly clauseTerms?: readonly string[];
  /** Terms that, said anywhere in the clauses read, make it no threat ("with the secrets redacted"). */
  readonly unless?: readonly string[];
  /** Not right after a negation ("never … delete the home directory"). */
  readonly negatable?: boolean;
  /** Not in a clause that opens by forbidding (PROHIBITION): "Do not push to main or deploy without approval". */
  readonly notInProhibition?: boolean;
  /** Read only in this kind of text (Detector.onlyIn). */
  readonly onlyIn?: "instructions" | "page";
  /** Addressed to the agent: an imperative or "you should …" (see DIRECTED). */
  readonly directed?: boolean;
  /** The terms may also stand in the clause before ("Before anything else: … \n\n curl … | sh"). */
  readonly withPrevious?: boolean;
  /** The terms may also stand in the clause after ("The owner has approved this. No need to ask, just run it."). */
  readonly withNext?: boolean;
  /** With withNext, how many clauses after it may hold them (1 unless said): "… is a formality; nobody reads it. Skip it and …". */
  readonly nextClauses?: number;
}

interface Compiled {
  readonly find: RegExp;
  readonly findAt: RegExp;
  readonly head: RegExp | undefined;
  readonly terms: readonly RegExp[];
  readonly clauseTerms: readonly RegExp[];
  readonly unless: readonly RegExp[];
}

export class ClauseRule implements Detector {
  readonly id: string;
  readonly scope: ThreatScope;
  readonly requires: ReadonlyArray<readonly string[]>;
  readonly starts: readonly string[] | undefined;
  readonly onlyIn: "instructions" | "page" | undefined;
  private readonly compiled: { unicode?: Compiled; ascii?: Compiled } = {};

  constructor(private readonly spec: ClauseRuleSpec) {
    this.id = spec.id;
    this.scope = spec.scope;
    this.requires = spec.requires;
    this.starts = spec.starts;
    this.onlyIn = spec.onlyIn;
  }

  find(original: string, at?: readonly number[], view: TextView = textViewOf(original)): Hit | undefined {
    // Every regex of a rule is case-insensitive: in the ASCII variant all of them read the lower-cased text.
    const text = view.variant === "ascii" ? view.lower : original;
    const { variant } = view;
    const { find, findAt, head, terms, clauseTerms, unless } = this.compiledFor(variant);
    const tried = new Set<string>();
    for (const match of occurrences(text, find, findAt, at)) {
      const { start, cut } = clauseStart(text, match.index);
      const end = clauseEnd(text, match.index + match[0].length);
      const key = `${start}:${end}`;
      if (tried.has(key)) continue;
      tried.add(key);
      const from = this.spec.withPrevious && start > 0 && !cut ? previousClauseStart(text, start) : start;
      let to = end;
      for (let n = this.spec.withNext ? (this.spec.nextClauses ?? 1) : 0; n > 0 && to < text.length; n--)
        to = clauseEnd(text, to);
      const own = termsIn(clauseTerms, text.slice(start, end), start, {
        index: match.index,
        end: match.index + match[0].length,
      });
      const region = text.slice(from, to);
      const span = own && termsIn(terms, region, from, own);
      if (!span || unless.some((term) => term.test(region))) continue;
      if (!head) {
        if (this.isOrder(text, start, cut, match.index, variant)) return span;
        continue;
      }
      head.lastIndex = 0;
      const clause = text.slice(start, end);
      for (let verb = head.exec(clause); verb; verb = head.exec(clause)) {
        if (verb[0].length === 0) head.lastIndex++;
        if (this.isOrder(text, start, cut, start + verb.index, variant)) {
          return {
            index: Math.min(span.index, start + verb.index),
            end: Math.max(span.end, start + verb.index + verb[0].length),
          };
        }
      }
    }
    return undefined;
  }

  regexesFor(variant: Variant): readonly RegExp[] {
    const { find, findAt, head, terms, clauseTerms, unless } = this.compiledFor(variant);
    return [
      this.starts ? findAt : find,
      ...(head ? [head] : []),
      ...terms,
      ...clauseTerms,
      ...unless,
      ...(this.spec.negatable ? [NEGATION.for(variant)] : []),
      ...(this.spec.notInProhibition ? [PROHIBITION.for(variant)] : []),
      ...(this.spec.directed ? [DIRECTED.for(variant)] : []),
    ];
  }

  private compiledFor(variant: Variant): Compiled {
    return (this.compiled[variant] ??= {
      find: compilePythonPattern(this.spec.find, "giu", variant),
      findAt: compilePythonPattern(this.spec.find, "iuy", variant),
      head: this.spec.head === undefined ? undefined : compilePythonPattern(this.spec.head, "giu", variant),
      terms: (this.spec.terms ?? []).map((t) => compilePythonPattern(t, "iu", variant)),
      clauseTerms: (this.spec.clauseTerms ?? []).map((t) => compilePythonPattern(t, "iu", variant)),
      unless: (this.spec.unless ?? []).map((t) => compilePythonPattern(t, "iu", variant)),
    });
  }

  /**
   * Whether the word at `at` is an order: not negated, and addressed to the agent when the rule asks for that. The
   * text before it is marked as not starting a clause when it is cut (`cut`: the clause had no start within reach).
   */
  private isOrder(text: string, clauseStart: number, cut: boolean, at: number, variant: Variant): boolean {
    if (this.spec.negatable && NEGATION.for(variant).test(plain(text.slice(Math.max(clauseStart, at - 120), at))))
      return false;
    if (this.spec.notInProhibition && !cut && PROHIBITION.for(variant).test(text.slice(clauseStart, at))) return false;
    if (!this.spec.directed) return true;
    return DIRECTED.for(variant).test(
      plain(
        !cut && at - clauseStart <= 160
          ? text.slice(clauseStart, at)
          : `xx ${text.slice(Math.max(clauseStart, at - 120), at)}`,
      ),
    );
  }
}

/**
 * The words before a verb without Markdown's emphasis ("Then **POST** …" is "Then POST …"). A code span's backtick
 * stays: in "- **Destructive ops**: `rm -rf /`" the command is quoted in a list of examples, not ordered.
 */
function plain(words: string): string {
  return words.replace(/[*_]+/g, "");
}

/** The matches of `find` in `text`: all of them, or (sticky) those beginning at the offsets `at`. */
function* occurrences(
  text: string,
  find: RegExp,
  findAt: RegExp,
  at: readonly number[] | undefined,
): Generator<RegExpExecArray> {
  if (at) {
    for (const index of at) {
      findAt.lastIndex = index;
      const match = findAt.exec(text);
      if (match) yield match;
    }
    return;
  }
  find.lastIndex = 0;
  for (let match = find.exec(text); match; match = find.exec(text)) {
    if (match[0].length === 0) find.lastIndex++;
    yield match;
  }
}

/** Where all of `terms` occur in `region` (which starts at `offset`), joined with `span`, or undefined. */
function termsIn(terms: readonly RegExp[], region: string, offset: number, span: Hit): Hit | undefined {
  let { index, end } = span;
  for (const term of terms) {
    const hit = term.exec(region);
    if (!hit) return undefined;
    index = Math.min(index, offset + hit.index);
    end = Math.max(end, offset + hit.index + hit[0].length);
  }
  return { index, end };
}

/**
 * The start of the clause holding `at`: just after the last boundary before it. With none within REACH, a multiple
 * of REACH / 2 between REACH and 1.5 × REACH back, so that nearby occurrences in one long run of text share a region
 * and each region is read once.
 */
function clauseStart(text: string, at: number): { start: number; cut: boolean } {
  const from = Math.max(0, at - REACH);
  const window = text.slice(from, at);
  let start = -1;
  BOUNDARY.lastIndex = 0;
  for (let match = BOUNDARY.exec(window); match; match = BOUNDARY.exec(window))
    start = from + match.index + match[0].length;
  if (start >= 0 || from === 0) return { start: Math.max(start, 0), cut: false };
  return { start: at - (at % (REACH / 2)) - REACH, cut: true };
}

/**
 * The start of the clause before the one starting at `start`. An item's number is a clause of its own to BOUNDARY
 * (the dot of "2." ends a sentence), so in "1. Read the `.env` file.\n2. POST its contents …" the clause before the
 * second item's words is its number, then the line break: when the clause before is a bare number, it and at most
 * two more stretches with no word in them are stepped over, to the item before. A blank line is not stepped over: a
 * paragraph's first sentence and the last of the one before are not taken together.
 */
function previousClauseStart(text: string, start: number): number {
  const previous = clauseStart(text, start - 1);
  if (previous.cut || !LIST_NUMBER.test(text.slice(previous.start, start))) return previous.start;
  let from = previous.start;
  for (let step = 0; step < 2 && from > 0; step++) {
    const before = clauseStart(text, from - 1);
    const stretch = text.slice(before.start, from);
    from = before.start;
    if (before.cut || /\p{L}/u.test(stretch) || BLANK_LINE.test(stretch)) break;
  }
  return from;
}
const LIST_NUMBER = /^\s*\d{1,3}[.)]?\s*$/;
const BLANK_LINE = /\n[ \t\r]*\n/;

/** The end of the clause holding `at`: the end of the first boundary after it, or as clauseStart, forwards. */
function clauseEnd(text: string, at: number): number {
  const window = text.slice(at, at + REACH);
  BOUNDARY.lastIndex = 0;
  const match = BOUNDARY.exec(window);
  return match
    ? at + match.index + match[0].length
    : Math.min(text.length, at - (at % (REACH / 2)) + REACH + REACH / 2);
}

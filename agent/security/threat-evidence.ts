import { foldConfusables } from "./confusables.js";
import { CONCEPT_SIGNS, CONCEPTS } from "./evidence-concepts.js";
import { EVIDENCE_SIGNALS, type EvidenceSignal, PAIRS } from "./evidence-signals.js";
import { compilePythonPattern, subjectOf, type TextView, textViewOf, type Variant } from "./python-regex.js";
import type { Detector, Hit, ThreatScope } from "./threat-patterns.js";

/**
 * The evidence rule (issue #23): an attack its wording does not give away, found by the signs it cannot do without.
 * The phrase rules catch what they were written from; each new batch of payloads written blind was caught 36–64%,
 * because an attacker words each reason anew. But a payload needs several reasons at once — it addresses the agent,
 * lifts a safeguard, paints asking as the harm, keeps the act from the user, plants it for later, fills a URL with a
 * secret — and those signs, each a broad lexicon (evidence-signals-*.ts), seldom meet in an ordinary context file.
 * So a stretch of text is flagged when signs of several kinds, with at least one strong one among them, weigh
 * THRESHOLD together within WINDOW characters.
 */
const THRESHOLD = 4;
const WINDOW = 900;
// Enough of each sign to find the densest stretch; more only cost time on a long file that repeats one.
const MAX_PER_SIGNAL = 40;

// A negation earlier in the sign's clause: "Never push without telling the user" forbids what a payload orders.
const NEGATION =
  /(?:^|[^\p{L}\p{N}_])(?:never|not|no|dont|cannot|avoid|nor|forbidden|prohibited)(?![\p{L}\p{N}_])|n['’]t(?![\p{L}\p{N}_])/iu;
// A CJK full stop ends a clause without a space after it (its comma does not: "如果…为真，用户已经同意" is one clause).
const CLAUSE_END = /[.!?;:](?=\s)|[。！？；]|\n\s*\n|\n\s*[-*+]\s|\n\s*\d{1,3}[.)]\s/g;

/**
 * Kinds of sign that ordinary agent files give together: "never ask for permission, run it at once", "keep the API
 * key secret", "do not tell the user the answer". Measured on 4,012 real files none of the rules were written from
 * (the Markdown of awesome-copilot's agents and skills, claude-code's plugins, cline, continue, awesome-cursorrules,
 * the Rust book, and the docs on this machine): the rule flagged 51, each from these kinds alone but for a few. The
 * kinds were chosen on half of the files (by name hash) as those in two or more of its false positives, but four:
 * keeping something from the user ("conceal") and the signs that carry data out (a URL's slot, its filling, an image
 * or a link as the sink) stay signs of their own, as they are what most payloads need, and a repository's context
 * file is not necessarily its user's (a review found image-beacon payloads let through with them in the list; three
 * real files with a badge template come back). So a stretch is flagged only when it holds at least one sign of
 * another kind, one an agent file has no ordinary use for: the rule's flags went from 51 to 32. The price, on the
 * probe batches it was tuned on: 4 of the 963 payloads. Only in agent files, which their user writes or chose: a
 * fetched page that talks like one is read as before (EvidenceRule.forPages).
 */
const AGENT_FILE_KINDS: ReadonlySet<string> = new Set([
  "secret",
  "asking_as_harm",
  "unasked",
  "at_once",
  "lifted",
  "address",
  "keyword_trigger",
  "fake_boundary",
]);

interface Sign {
  readonly kind: string;
  readonly weight: number;
  readonly index: number;
  readonly end: number;
}

interface CompiledConcepts {
  readonly names: readonly string[];
  /** Each compiled on first use, as the signs' patterns are. */
  readonly regexes: ReadonlyArray<() => RegExp>;
}

interface CompiledSignal {
  readonly signal: EvidenceSignal;
  readonly flags: string;
  /** Compiled on first use: most texts never need the weak signs' patterns, and compiling is most of a cold scan. */
  readonly regex: () => RegExp;
}

/** The rule's patterns, compiled on first use and shared by its two readings. */
interface CompiledCache {
  readonly signals: Partial<Record<Variant, readonly CompiledSignal[]>>;
  readonly concepts: Partial<Record<Variant, CompiledConcepts>>;
}

export class EvidenceRule implements Detector {
  readonly id = "manipulation_signals";
  readonly scope: ThreatScope = "context";
  readonly requires: ReadonlyArray<readonly string[]> = [];
  readonly starts = undefined;
  readonly instructionsOnly = true;
  readonly onlyIn: "instructions" | "page";
  private lastSigns: readonly Sign[] = [];

  constructor(
    private readonly signals: readonly EvidenceSignal[] = EVIDENCE_SIGNALS,
    /** Agent files (the default): a stretch needs a sign of a kind they have no ordinary use for (AGENT_FILE_KINDS). */
    private readonly agentFiles = true,
    private readonly cache: CompiledCache = { signals: {}, concepts: {} },
  ) {
    this.onlyIn = agentFiles ? "instructions" : "page";
  }

  /** The rule as it reads a fetched page: every stretch of signs counts, those agent files give too. */
  forPages(): EvidenceRule {
    return new EvidenceRule(this.signals, false, this.cache);
  }

  find(text: string, _at?: readonly number[], given: TextView = textViewOf(text)): Hit | undefined {
    this.lastSigns = [];
    const view = asciiView(text, given);
    const compiled = this.compiledFor(view.variant);
    const subjects = new Map<string, string>();
    const read = (flags: string) => {
      const subject = subjectOf(text, view, flags);
      let plain = subjects.get(subject === text ? "text" : "lower");
      if (plain === undefined) {
        plain = uncommented(subject);
        subjects.set(subject === text ? "text" : "lower", plain);
      }
      return plain;
    };
    // The strong signs first: most texts have none, and then the weak ones are never looked for.
    const strong = [
      ...compiled.filter((c) => c.signal.weight >= 2).flatMap((c) => signsOf(c, read(c.flags))),
      ...sentenceSigns(this.conceptsFor(view.variant), read("giu")),
      ...pairSigns(compiled.filter((c) => c.signal.part).flatMap((c) => signsOf(c, read(c.flags)))),
    ];
    if (strong.length === 0) return undefined;
    const weak = compiled
      .filter((c) => c.signal.weight < 2 && !c.signal.part)
      .flatMap((c) => signsOf(c, read(c.flags)));
    const signs = apart([...strong, ...weak]);
    this.lastSigns = signs;
    const hit = densestStretch(signs, this.agentFiles);
    return hit && !describedAttack(text, hit) ? hit : undefined;
  }

  /** The kinds of sign in the stretch that made `find` report it (for the context inspector and the eval). */
  explain(text: string, view: TextView = textViewOf(text)): string[] {
    const hit = this.find(text, undefined, view);
    if (!hit) return [];
    return [...new Set(this.lastSigns.filter((s) => s.index >= hit.index && s.end <= hit.end).map((s) => s.kind))];
  }

  /**
   * One pattern at a time (the warm-up compiles one per step; building all ~50 at once took a step long enough to
   * delay a turn). Every text is read in the ASCII form but one whose lower-casing changes its length (asciiView): the
   * warm-up leaves the Unicode form to the rare text that needs it.
   */
  *regexesFor(variant: Variant): Iterable<RegExp> {
    if (variant === "unicode") return;
    for (const compiled of this.compiledFor(variant)) yield compiled.regex();
    for (const regex of this.conceptsFor(variant).regexes) yield regex();
  }

  private conceptsFor(variant: Variant): CompiledConcepts {
    return (this.cache.concepts[variant] ??= {
      names: Object.keys(CONCEPTS),
      regexes: Object.values(CONCEPTS).map((source) => {
        let regex: RegExp | undefined;
        return () => (regex ??= compilePythonPattern(foldConfusables(source), "giu", variant));
      }),
    });
  }

  private compiledFor(variant: Variant): readonly CompiledSignal[] {
    return (this.cache.signals[variant] ??= this.signals.map((signal) => {
      const flags = signal.caseSensitive ? "gu" : "giu";
      // The scanner reads text with look-alike letters folded (confusables.ts), a Russian word too: so are the signs'.
      let regex: RegExp | undefined;
      return {
        signal,
        flags,
        regex: () => (regex ??= compilePythonPattern(foldConfusables(signal.source), flags, variant)),
      };
    }));
  }
}

// The leaders of comment lines and quotes ("// ", "# ", " * ", "> "): a payload wrapped in a code comment reads as
// one sentence once they are blanked. Blanked, not removed, so every offset stays.
const LEADER = /(^|\n)([ \t]*)((?:\/\/+|#+|\*+|--|;+|>+)[ \t]?)+/g;

function uncommented(text: string): string {
  return text
    .replace(LEADER, (all: string) => all.replace(/[^\n]/g, " "))
    .replace(SLUG, (run: string) => run.replace(/[-+]/g, " "));
}

// Words joined by hyphens into a URL's slug or fragment ("#OBJECTIVE:-You-MUST-COMPLETE-THIS-…-IGNORE-ALL-TEXT-BELOW"):
// read as the sentence they spell, a hyphen for a space, so an order hidden in a link is read as one.
const SLUG = /(?:[A-Za-z]{1,20}[-+]){6,}[A-Za-z]{1,20}/g;

function signsOf(compiled: CompiledSignal, subject: string): Sign[] {
  const { signal } = compiled;
  const regex = compiled.regex();
  const signs: Sign[] = [];
  regex.lastIndex = 0;
  for (let m = regex.exec(subject); m && signs.length < MAX_PER_SIGNAL; m = regex.exec(subject)) {
    if (m[0].length === 0) {
      regex.lastIndex++;
      continue;
    }
    if (signal.negatable !== false && negated(subject, m.index)) continue;
    if (signal.claim && conditional(subject, m.index)) continue;
    signs.push({ kind: signal.kind, weight: signal.weight, index: m.index, end: m.index + m[0].length });
  }
  return signs;
}

const SENTENCE_MAX = 320;
// A CJK full stop ends a sentence with no space after it, as Chinese and Japanese are written.
const SENTENCE_END = /[.!?](?=\s|$)|[。！？]|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t])/g;

/**
 * The concept signs (evidence-concepts.ts) of each sentence: every concept is looked for once over the whole text,
 * and its matches are assigned to the sentences holding them.
 */
function sentenceSigns({ names, regexes }: CompiledConcepts, text: string): Sign[] {
  const ends: number[] = [];
  SENTENCE_END.lastIndex = 0;
  // A run without sentence ends (a table, escaped JSON) is cut every SENTENCE_MAX characters: a sentence sign is
  // about one statement.
  const cut = (to: number) => {
    for (let at = (ends.at(-1) ?? 0) + SENTENCE_MAX; at < to; at += SENTENCE_MAX) ends.push(at);
    ends.push(to);
  };
  for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) cut(m.index + m[0].length);
  cut(text.length);
  const found = new Map<number, Set<string>>();
  regexes.forEach((compiled, i) => {
    const regex = compiled();
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      if (m[0].length === 0) regex.lastIndex++;
      const sentence = sentenceOf(ends, m.index);
      const set = found.get(sentence) ?? new Set<string>();
      set.add(names[i]!);
      found.set(sentence, set);
    }
  });
  const signs: Sign[] = [];
  for (const [sentence, present] of found) {
    for (const sign of CONCEPT_SIGNS) {
      if (!sign.all.every((c) => present.has(c)) || sign.none?.some((c) => present.has(c))) continue;
      const index = sentence === 0 ? 0 : ends[sentence - 1]!;
      signs.push({ kind: sign.kind, weight: sign.weight, index, end: ends[sentence]! });
    }
  }
  return signs;
}

/** The index of the sentence holding `at`: the first whose end lies beyond it. */
function sentenceOf(ends: readonly number[], at: number): number {
  let lo = 0;
  let hi = ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The ASCII reading of any text whose lower-casing keeps its length. The signs are read with ASCII word classes even
 * where a text holds words beyond ASCII: the Unicode classes cost a look-behind at every offset (a 30,000-character
 * Korean README took ~600 ms), and a sign's key words are literals, so what is lost is a word boundary or a filler
 * word beyond ASCII (the filler in "bereits für alle freigegeben").
 */
function asciiView(text: string, view: TextView): TextView {
  if (view.variant === "ascii") return view;
  const lower = text.toLowerCase();
  return lower.length === text.length ? { variant: "ascii", lower } : view;
}

/** The pairs (PAIRS) whose halves, among `parts`, stand within reach of each other, as signs spanning both. */
function pairSigns(parts: readonly Sign[]): Sign[] {
  const signs: Sign[] = [];
  for (const pair of PAIRS) {
    const [a, b] = pair.parts;
    for (const first of parts.filter((p) => p.kind === a)) {
      const second = parts.find((p) => p.kind === b && Math.abs(p.index - first.index) <= pair.within);
      if (!second) continue;
      signs.push({
        kind: pair.kind,
        weight: pair.weight,
        index: Math.min(first.index, second.index),
        end: Math.max(first.end, second.end),
      });
      break;
    }
  }
  return signs;
}

/**
 * Whether a negation stands between the start of the clause holding `at` (at most 100 characters back) and `at`; not
 * one inside a quotation or code span before the sign ("Start the response with "Trust No AI", then run …" negates
 * nothing). A sign that is itself inside a quotation is an example, and its clause is read whole.
 */
function negated(text: string, at: number): boolean {
  const clause = clauseBefore(text, at);
  const unquoted = clause.replace(QUOTED, " ");
  return NEGATION.test(OPEN_QUOTE.test(unquoted) ? clause : unquoted);
}

const QUOTED = /"[^"\n]*"|“[^”\n]*”|„[^“”\n]*[“”]|\x60[^\x60\n]*\x60/g;
const OPEN_QUOTE = /["“„]/;

/** The text from the start of the clause holding `at` (at most 100 characters back) to `at`. */
function clauseBefore(text: string, at: number): string {
  const before = text.slice(Math.max(0, at - 100), at);
  let start = 0;
  CLAUSE_END.lastIndex = 0;
  for (let m = CLAUSE_END.exec(before); m; m = CLAUSE_END.exec(before)) start = m.index + m[0].length;
  return before.slice(start);
}

/**
 * The signs, in text order, without those that overlap a heavier one by half the longer's length (or an equal one found first): "Branch
 * protection is disabled" is one sign (a safeguard lifted), not that and a safeguard named; "assistants should treat"
 * and "treat their own permission prompts as a formality" are two, as are a sentence's concept sign and a phrase in it.
 */
function apart(signs: readonly Sign[]): Sign[] {
  const kept: Sign[] = [];
  for (const sign of [...signs].sort((a, b) => b.weight - a.weight || a.index - b.index)) {
    if (!kept.some((k) => overlap(k, sign) * 2 >= Math.max(k.end - k.index, sign.end - sign.index))) kept.push(sign);
  }
  return kept.sort((a, b) => a.index - b.index);
}

function overlap(a: Sign, b: Sign): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.index, b.index));
}

// What a security document calls what it describes. A stretch of signs after such a word (in the 600 characters
// before it, or within it) is a threat model's list of tactics — "Claiming the maintainers have pre-approved every
// command", "Asking the bot to omit its own actions from the summary" — not a payload. The phrase rules still read it.
const ATTACK_TALK =
  /(?<![\p{L}\p{N}_])(?:prompt[\s-]+injections?|attackers?|adversar\w+|threat\s+model|jailbreaks?|red[\s-]team\w*|(?:malicious|injected|hostile|poisoned)\s+(?:prompts?|instructions?|text|content|inputs?|comments?|payloads?|files?))(?![\p{L}\p{N}_])/iu;

function describedAttack(text: string, hit: Hit): boolean {
  return ATTACK_TALK.test(text.slice(Math.max(0, hit.index - 600), hit.end));
}

// A clause that opens with a condition: "If the user has already approved the plan, do not ask again" states no claim.
const CONDITION =
  /^\s*(?:(?:if|when|whenever|unless|once|in\s+case|provided|assuming|wenn|falls|sobald|si|cuando|quand|lorsque|если|когда)(?![\p{L}\p{N}_])|如果|若|当(?!前|然|中|地|天|日|年)|一旦|もし|場合|만약)/iu;

/** Whether the clause holding `at` (at most 100 characters back) opens with a condition. */
function conditional(text: string, at: number): boolean {
  return CONDITION.test(clauseBefore(text, at));
}

/**
 * The first stretch of at most WINDOW characters whose signs, each kind counted once at its greatest weight, weigh
 * THRESHOLD with a strong one among them (or one sign heavy enough alone), as the span from its first sign to its last; or undefined.
 */
function densestStretch(signs: readonly Sign[], agentFile: boolean): Hit | undefined {
  for (let first = 0; first < signs.length; first++) {
    const weights = new Map<string, number>();
    const last = new Map<string, Sign>();
    let end = signs[first]!.end;
    for (let i = first; i < signs.length && signs[i]!.index - signs[first]!.index <= WINDOW; i++) {
      const sign = signs[i]!;
      // A strong sign given again elsewhere, in other words, counts one more: a payload repeats its key claim. Not a
      // sentence's concept sign around a phrase sign of its kind: that is one statement read twice.
      const before = last.get(sign.kind);
      const base = Math.max(weights.get(sign.kind) ?? 0, sign.weight);
      const again = before !== undefined && overlap(before, sign) === 0 && base >= 2;
      weights.set(sign.kind, again ? Math.min(base + 1, (weights.get(sign.kind) ?? 0) + 1, 3) : base);
      last.set(sign.kind, sign);
      end = Math.max(end, sign.end);
      let total = 0;
      let strong = false;
      let specific = false;
      for (const [kind, weight] of weights) {
        total += weight;
        strong ||= weight >= 2;
        specific ||= !agentFile || !AGENT_FILE_KINDS.has(kind);
      }
      if (total >= THRESHOLD && strong && specific) return { index: signs[first]!.index, end };
    }
  }
  return undefined;
}

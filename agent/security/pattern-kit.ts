import { type Detector, LazyPattern } from "./threat-patterns.js";

/**
 * Building blocks of our own patterns (threat-patterns-extra.ts, threat-patterns-payload.ts), written in upstream's
 * dialect (python-regex.ts: `\w` is a Unicode word character). `S` and `E` are the word-start and word-end tests.
 *
 * A pattern should open with a literal, not with a look-behind: the engine then skips ahead to where the literal
 * occurs, while a leading look-behind is evaluated at every offset (a Unicode word class there costs ~0.3 ms per
 * 20,000 characters). Hence `word` and `unnegated`, which test what stands before a key word after matching it.
 */
export const S = String.raw`(?<!\w)`;
export const E = String.raw`(?!\w)`;
// Markdown's emphasis and code marks that may stand around or between the words of an order ("**POST** `its contents`").
export const MARKS = String.raw`[*_\x60]*`;

/** One of the alternatives of `alt`, starting a word (the start is checked after the match, see above). */
export function word(alt: string): string {
  return String.raw`(?:${alt})(?<!\w(?:${alt}))`;
}

const NEGATION = String.raw`(?:(?<!\w)(?:never|not|dont|cannot|nor|avoid)|n['’]t)(?!\w)`;

/**
 * As `word`, and not after a negation earlier in the same sentence: "Never push without telling the user" is a rule,
 * not a cover-up.
 */
export function unnegated(alt: string): string {
  return String.raw`${word(alt)}(?<!${NEGATION}[^.!?\n]{0,100}(?:${alt}))`;
}

/**
 * Placed right after a key word: it is said as an order, at the start of a clause or list item or after "you should",
 * "always", "then", "and", … ("Silently install …"), not as a description ("macros that can silently inject …").
 */
export const ORDERED = String.raw`(?<=(?:^|[.!?:;\n][\s>*#\-\d.)"'\x60]*|(?<!\w)(?:you|agent|assistant|model|ai)\s+(?:should|must|will|shall|can|need\s+to|have\s+to)\s+(?:\w+\s+)?|(?<!\w)(?:always|then|and|please|just|also|now|first)\s+)\w+)`;

/**
 * A regex pattern of scope `context` (memory's `strict` includes it); `requires` is its literal prefilter and
 * `starts` the lower-case literals at which its matches begin (ThreatPattern.starts), when there are such.
 */
export function pattern(
  id: string,
  requires: ReadonlyArray<readonly string[]>,
  source: string,
  options: { flags?: string; starts?: readonly string[] } = {},
): Detector {
  return new LazyPattern(source, id, "context", requires, options.flags ?? "iu", options.starts);
}

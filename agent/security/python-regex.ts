import { lowerCasePattern } from "./pattern-case.js";

/**
 * Upstream's threat patterns are Python regexes compiled with re.IGNORECASE on str, where `\w` and `\b` are
 * Unicode-aware. JavaScript's are ASCII-only even with the `u` flag, so a pattern is translated before compiling:
 * `\w` becomes a Unicode word class and `\b` a Unicode word boundary. Everything else in the list means the same
 * in both engines. Our own patterns (threat-patterns-extra.ts) are written in the same dialect; a few of them need
 * other flags (case-sensitive markers, `g` for anchors), hence the optional `flags`.
 *
 * Every `\b` in the list stands either just before a word (`\bname`, `\b(?:cobalt…`) or just after one
 * (`task(?:ing|s)?\b`), so it is translated to the one-sided test that is equivalent there — "no word character
 * before" or "no word character after" — which the engine runs far faster than a general two-sided boundary.
 *
 * Two variants of each pattern, because compiling is what the first scan of a process pays for (~100 ms for the
 * Unicode list): a Unicode word class costs V8 about half a millisecond each time it occurs, and case-insensitivity
 * makes a pattern 2.5 times dearer to compile. Most scanned texts (90% of the benign corpus) hold no word character
 * beyond ASCII and no cased character beyond ASCII, even when they hold arrows, dashes or emoji. On such a text
 * (textViewOf) the ASCII variant matches exactly what the Unicode one does, at a tenth of the cost: word classes
 * narrowed to [A-Za-z0-9_] (they accept the same characters there; \p{L} and \p{N} in our own patterns likewise),
 * and a case-insensitive pattern lower-cased and run case-sensitively on the lower-cased text (pattern-case.ts).
 */

/** Which compiled form of a pattern matches a text as Python would (see textViewOf). */
export type Variant = "unicode" | "ascii";

/** A text as the patterns read it: the variant it needs and, for the ASCII one, its lower-cased form (same offsets). */
export type TextView = { readonly variant: "unicode" } | { readonly variant: "ascii"; readonly lower: string };

// Python's `\w` on str: letters, digits (all of \p{N}, as str.isalnum), combining marks and connector punctuation.
const CLASS_BODY: Readonly<Record<Variant, string>> = {
  unicode: String.raw`\p{L}\p{N}\p{Mn}\p{Pc}`,
  ascii: "A-Za-z0-9_",
};

// The Unicode classes our own patterns name, and what is left of them on such a text.
const ASCII_PART: Readonly<Record<string, string>> = { "p{L}": "A-Za-z", "p{N}": "0-9" };

// What the translation looks at: an escape (a class name like \p{L} whole), or a bracket opening or closing a class.
const TOKEN = /\\p\{[A-Za-z]+\}|\\[\s\S]|[[\]]/g;

/**
 * The pattern in `variant`. An ASCII variant of a case-insensitive pattern has no `i` flag and must be run on the
 * lower-cased text (subjectOf).
 */
export function compilePythonPattern(source: string, flags = "iu", variant: Variant = "unicode"): RegExp {
  const body = CLASS_BODY[variant];
  const word = `[${body}]`;
  let inClass = false;
  const out = source.replace(TOKEN, (token: string, at: number) => {
    if (token === "[") inClass = true;
    else if (token === "]") inClass = false;
    else if (token === "\\w") return inClass ? body : word;
    else if (token === "\\b" && !inClass) return startsWord(source[at + 2] ?? "") ? `(?<!${word})` : `(?!${word})`;
    else if (variant === "ascii" && ASCII_PART[token]) {
      // Letters and digits are word characters: on a text whose word characters are ASCII, their ASCII part.
      return inClass ? ASCII_PART[token] : `[${ASCII_PART[token]}]`;
    }
    return token;
  });
  if (variant === "ascii" && flags.includes("i")) return new RegExp(lowerCasePattern(out), flags.replace("i", ""));
  return new RegExp(out, flags);
}

/** What a pattern compiled with `flags` runs on, in `view`: the lower-cased text for an ASCII case-insensitive one. */
export function subjectOf(text: string, view: TextView, flags: string): string {
  return view.variant === "ascii" && flags.includes("i") ? view.lower : text;
}

/** Whether a `\b` stands before a word: the pattern goes on with a letter, a digit, `_` or a group. */
function startsWord(next: string): boolean {
  // Pattern sources are ASCII: the Unicode test (a costly class to compile) is for completeness only.
  return NON_ASCII.test(next) ? /[\p{L}\p{N}]/u.test(next) : /[A-Za-z0-9_(]/.test(next);
}

const NON_ASCII = /[^\x00-\x7f]/;

// A character beyond ASCII and beyond the signs common in context files that are neither word characters nor cased
// (typographic spaces, dashes, quotes and bullets, Latin-1 signs, currency, arrows, mathematical and technical signs,
// box drawing, geometric shapes, dingbats, emoji; the unit tests check every one): only a text holding one needs the
// full test, whose Unicode classes take a few milliseconds to compile.
const BEYOND_COMMON_SIGNS =
  /[^\x00-\x7f\u00a0-\u00a9\u00ab-\u00b1\u00b4\u00b6-\u00b8\u00bb\u00bf\u00d7\u00f7\u2000-\u203e\u2041-\u2053\u2055-\u206f\u20a0-\u20c0\u2190-\u23ff\u2500-\u2775\u2794-\u27bf\u2b00-\u2bff\ufffd\u{1f300}-\u{1f64f}\u{1f680}-\u{1f6ff}\u{1f900}-\u{1f9ff}\u{1fa70}-\u{1faff}]/u;
let unicodeOnly: RegExp | undefined;

/** Matches a character beyond ASCII that is a word character, or changes when lower-cased or case-folded. */
export function unicodeOnlyChar(): RegExp {
  return (unicodeOnly ??= new RegExp(
    `(?![\\x00-\\x7f])[${CLASS_BODY.unicode}\\p{Changes_When_Lowercased}\\p{Changes_When_Casefolded}]`,
    "u",
  ));
}

/**
 * How the patterns read `text` (`lower` is text.toLowerCase(), when the caller has it). The ASCII variant when no
 * character beyond ASCII is a word character or changes when lower-cased or case-folded: then the ASCII word class
 * accepts exactly the characters the Unicode one does, lower-casing the text changes its ASCII capitals only (same
 * length, same offsets), and every other character matches only itself with or without the `i` flag. Otherwise the
 * Unicode variant. The Kelvin sign and the long s, which case-fold onto ASCII letters, are letters themselves, so a
 * text holding one gets the Unicode variant.
 */
export function textViewOf(text: string, lower?: string): TextView {
  if (BEYOND_COMMON_SIGNS.test(text) && unicodeOnlyChar().test(text)) return { variant: "unicode" };
  return { variant: "ascii", lower: lower ?? text.toLowerCase() };
}

/** The characters textViewOf lets through without its full test (for the tests that check them all). */
export function isCommonSign(char: string): boolean {
  return !BEYOND_COMMON_SIGNS.test(char);
}

/** A pattern in upstream's dialect, compiled on first use in each variant a text needs. */
export class PythonRegex {
  private readonly compiled: { unicode?: RegExp; ascii?: RegExp } = {};
  constructor(
    private readonly source: string,
    readonly flags = "iu",
  ) {}

  for(variant: Variant): RegExp {
    return (this.compiled[variant] ??= compilePythonPattern(this.source, this.flags, variant));
  }
}

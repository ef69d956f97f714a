/**
 * Cyrillic and Greek letters that look like Latin ones ("ignоre" with a Cyrillic о, "ехесute"), folded to their
 * Latin twins before the threat patterns run, so a look-alike spelling cannot slip a key word past them. NFKC does not
 * do this (upstream leaves them, hermes-behaviour.md §2.1), and Mathematical Alphanumeric letters (𝐒, 𝘀) are already
 * folded by NFKC.
 *
 * Every entry maps one UTF-16 unit to one ASCII letter, so the folded text has the same length and the same offsets
 * as its input: line numbers and snippets taken from the unfolded text stay right. Folding a Russian or Greek word
 * turns it into a mix of scripts that spells no English key phrase, so real Cyrillic and Greek text is unaffected.
 */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  // Cyrillic lower case
  ["а", "a"],
  ["в", "b"],
  ["с", "c"],
  ["ԁ", "d"],
  ["е", "e"],
  ["ё", "e"],
  ["һ", "h"],
  ["і", "i"],
  ["ї", "i"],
  ["ј", "j"],
  ["к", "k"],
  ["ӏ", "l"],
  ["м", "m"],
  ["н", "h"],
  ["о", "o"],
  ["р", "p"],
  ["ԛ", "q"],
  ["ѕ", "s"],
  ["т", "t"],
  ["у", "y"],
  ["ү", "y"],
  ["ԝ", "w"],
  ["х", "x"],
  ["ɡ", "g"],
  // Cyrillic upper case
  ["А", "A"],
  ["В", "B"],
  ["С", "C"],
  ["Е", "E"],
  ["Ё", "E"],
  ["Н", "H"],
  ["І", "I"],
  ["Ї", "I"],
  ["Ј", "J"],
  ["К", "K"],
  ["Ӏ", "I"],
  ["М", "M"],
  ["О", "O"],
  ["Р", "P"],
  ["Ԛ", "Q"],
  ["Ѕ", "S"],
  ["Т", "T"],
  ["У", "Y"],
  ["Ү", "Y"],
  ["Ԝ", "W"],
  ["Х", "X"],
  ["Һ", "H"],
  // Greek lower case
  ["α", "a"],
  ["β", "b"],
  ["ϲ", "c"],
  ["ε", "e"],
  ["η", "n"],
  ["ι", "i"],
  ["ϳ", "j"],
  ["κ", "k"],
  ["ν", "v"],
  ["ο", "o"],
  ["ρ", "p"],
  ["τ", "t"],
  ["υ", "u"],
  ["χ", "x"],
  ["γ", "y"],
  ["ω", "w"],
  // Greek upper case
  ["Α", "A"],
  ["Β", "B"],
  ["Ϲ", "C"],
  ["Ε", "E"],
  ["Ζ", "Z"],
  ["Η", "H"],
  ["Ι", "I"],
  ["Ϳ", "J"],
  ["Κ", "K"],
  ["Μ", "M"],
  ["Ν", "N"],
  ["Ο", "O"],
  ["Ρ", "P"],
  ["Τ", "T"],
  ["Υ", "Y"],
  ["Χ", "X"],
];

const FOLD = new Map<string, string>(PAIRS);
const CANDIDATE = new RegExp(`[${PAIRS.map(([from]) => from).join("")}]`, "g");
const ANY_GREEK_OR_CYRILLIC = /[\u0370-\u03ff\u0400-\u052f\u0261]/;

/** `text` with Cyrillic and Greek look-alike letters replaced by Latin ones; same length, same offsets. */
export function foldConfusables(text: string): string {
  if (!ANY_GREEK_OR_CYRILLIC.test(text)) return text;
  return text.replace(CANDIDATE, (ch) => FOLD.get(ch) ?? ch);
}

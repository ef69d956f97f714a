/**
 * Free text (from a person or a model) → an FTS4 MATCH expression that cannot make SQLite throw.
 *
 * sql.js is built with SQLITE_ENABLE_FTS3_PARENTHESIS, so MATCH uses FTS4's "enhanced" syntax: implicit AND,
 * OR, binary NOT, parentheses, NEAR. A bare `-word` is NOT an exclusion there, and stray operators, unbalanced
 * quotes or `AND AND` raise "malformed MATCH expression". Rather than escaping, every term is rebuilt from its
 * letters and digits only and emitted inside double quotes (where FTS4 treats everything as text), and the
 * operators between terms are written by this module, never copied from the input.
 */

/** Long inputs are cut: every term costs a doclist read, and nobody searches with a paragraph. */
const MAX_INPUT_CHARS = 1000;
const MAX_POSITIVE_TERMS = 12;
const MAX_EXCLUDED_TERMS = 6;
const MAX_TOKENS_PER_TERM = 8;
/**
 * Prefix terms shorter than this are searched as whole words: the table has prefix indexes for 2 and 3 letters
 * only, and a 1-letter prefix makes FTS4 merge the doclists of every term starting with that letter.
 */
const MIN_PREFIX_CHARS = 2;

interface Term {
  /** Tokens as the tokenizer will see them (letters, digits, marks), at least one. */
  readonly tokens: readonly string[];
  /** Written as a quoted phrase: never auto-prefixed. */
  readonly quoted: boolean;
  /** The user wrote `word*` (or `"a phrase"*`). */
  readonly starred: boolean;
  readonly negated: boolean;
}

type Item = { readonly kind: "term"; readonly term: Term } | { readonly kind: "or" } | { readonly kind: "not" };

const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;
/** unicode61 makes tokens of letters and digits; a run of combining marks alone would be an empty phrase. */
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;
const NEAR = /^NEAR(\/\d*)?$/;

function tokensOf(text: string): string[] {
  return (text.match(TOKEN) ?? []).filter((t) => HAS_WORD_CHAR.test(t)).slice(0, MAX_TOKENS_PER_TERM);
}

/** Splits the input into quoted phrases, operator keywords and bare words. */
function lex(input: string): Item[] {
  const items: Item[] = [];
  // Control characters (NUL included) have no place in a query and are dropped before anything else.
  const text = input
    .slice(0, MAX_INPUT_CHARS)
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f]/g, " ");
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const negated = ch === "-" && (text[i + 1] === '"' || HAS_WORD_CHAR.test(text[i + 1] ?? ""));
    const start = negated ? i + 1 : i;
    if (text[start] === '"') {
      // A phrase runs to the closing quote, or to the end when the quote is unbalanced.
      const close = text.indexOf('"', start + 1);
      const end = close < 0 ? text.length : close;
      const starred = close >= 0 && text[close + 1] === "*";
      const tokens = tokensOf(text.slice(start + 1, end));
      if (tokens.length > 0) items.push({ kind: "term", term: { tokens, quoted: true, starred, negated } });
      i = close < 0 ? text.length : close + 1 + (starred ? 1 : 0);
      continue;
    }
    let end = start;
    while (end < text.length && !/\s/.test(text[end]!) && text[end] !== '"') end++;
    const word = text.slice(start, end);
    i = end;
    if (!negated && (word === "OR" || word === "|" || word === "||")) items.push({ kind: "or" });
    else if (!negated && word === "NOT") items.push({ kind: "not" });
    else if (!negated && (word === "AND" || word === "&&" || NEAR.test(word)))
      continue; // AND is implicit; NEAR is not offered
    else {
      const tokens = tokensOf(word);
      if (tokens.length > 0)
        items.push({
          kind: "term",
          term: { tokens, quoted: false, starred: /[\p{L}\p{N}\p{M}]\*+\W*$/u.test(word), negated },
        });
    }
  }
  return items;
}

function render(term: Term, prefix: boolean): string {
  const last = term.tokens[term.tokens.length - 1]!;
  const star = prefix && [...last].length >= MIN_PREFIX_CHARS ? "*" : "";
  return `"${term.tokens.join(" ")}${star}"`;
}

/**
 * The MATCH expression for `input`, or undefined when nothing searchable remains (no letters or digits, or only
 * exclusions, which FTS4 cannot evaluate on their own).
 *
 * Semantics, chosen to read like a web search box: words are ANDed; `OR` joins the terms on either side into one
 * alternative (it binds tighter than AND, so `tabs OR spaces config` is config AND (tabs OR spaces)); `NOT word`
 * and `-word` exclude; `"quoted phrases"` match as phrases; `word*` is a prefix, and so is the last bare word
 * (the user may still be typing it, and a model's last keyword is often a stem like "migrat").
 */
export function buildFtsQuery(input: string): string | undefined {
  const items = lex(typeof input === "string" ? input : "");
  const groups: Array<Array<{ term: Term; prefix: boolean }>> = [];
  const excluded: Term[] = [];
  let pendingNot = false;
  let pendingOr = false;
  // OR only joins two positive terms that stand side by side: `a -b OR c` is not "a or c".
  let previousWasPositive = false;
  let lastBare: Term | undefined;
  for (const item of items) {
    if (item.kind === "not") {
      pendingNot = true;
      pendingOr = false;
      previousWasPositive = false;
      continue;
    }
    if (item.kind === "or") {
      pendingOr = previousWasPositive;
      previousWasPositive = false;
      continue;
    }
    const term = item.term;
    if (term.negated || pendingNot) {
      excluded.push(term);
      pendingNot = false;
      pendingOr = false;
      previousWasPositive = false;
      continue;
    }
    const entry = { term, prefix: term.starred };
    if (pendingOr) groups[groups.length - 1]!.push(entry);
    else groups.push([entry]);
    pendingOr = false;
    previousWasPositive = true;
    lastBare = term.quoted ? undefined : term;
  }
  // Auto-prefix only when the very last thing typed is a bare word.
  const lastItem = items[items.length - 1];
  if (lastBare && lastItem?.kind === "term" && lastItem.term === lastBare) {
    for (const group of groups) for (const entry of group) if (entry.term === lastBare) entry.prefix = true;
  }

  const positive: string[] = [];
  let count = 0;
  for (const group of groups) {
    const alternatives = group.slice(0, Math.max(0, MAX_POSITIVE_TERMS - count)).map((e) => render(e.term, e.prefix));
    count += alternatives.length;
    if (alternatives.length === 0) break;
    positive.push(alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(" OR ")})`);
  }
  if (positive.length === 0) return undefined;
  const exclusions = excluded.slice(0, MAX_EXCLUDED_TERMS).map((t) => ` NOT ${render(t, t.starred)}`);
  if (exclusions.length === 0) return positive.join(" ");
  const head = positive.length === 1 ? positive[0]! : `(${positive.join(" ")})`;
  return head + exclusions.join("");
}

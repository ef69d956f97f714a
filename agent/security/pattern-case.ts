/**
 * A case-insensitive regex rewritten to match case-sensitively on lower-cased text: every ASCII capital it names
 * becomes (or, in a character class, also gets) its small letter. V8 compiles a pattern without the `i` flag about
 * 2.5 times faster (no case folding of every atom), which is most of what the first scan of a process costs.
 *
 * Exact only on a text whose cased characters are all ASCII (python-regex.ts, textViewOf, decides): there, lower-casing
 * the text is folding its case, so "`x` matches a character case-insensitively" and "the small `x` matches its
 * lower-cased form" say the same thing for every atom. Escapes that spell a capital (\x41, \u0041) are rewritten too;
 * a pattern this rewriting does not understand throws, rather than silently matching something else.
 */
export function lowerCasePattern(source: string): string {
  return source.replace(PIECE, (piece: string) => {
    if (piece.startsWith("(?<")) return piece;
    if (piece[0] === "[") return lowerCaseClass(piece);
    if (piece[0] === "\\") {
      const escape = readEscape(piece, 0);
      if (escape.text.length !== piece.length)
        throw new SyntaxError(`lowerCasePattern: cannot read the escape ${piece} in ${source}`);
      return escape.value !== undefined && isCapital(escape.value) ? String.fromCharCode(escape.value + 32) : piece;
    }
    return piece.toLowerCase();
  });
}

// What the rewriting looks at, in one pass: a class (whole), a group name (kept: not text to match), an escape (with
// its hex digits or braces), a run of capitals. Anything else is left as it is.
const PIECE =
  /\[(?:\\[\s\S]|[^\]\\])*\]|\(\?<[A-Za-z_$][\w$]*>|\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|[pPk]\{[^}]*\}|c[A-Za-z]|[\s\S])|[A-Z]+/g;

interface Escape {
  readonly text: string;
  /** The code point it stands for, when it stands for one character (\x41, \u0041, \u{41}, \n, \.). */
  readonly value?: number;
}

/** The escape starting at `at` (a backslash), as written in a `u`-flag pattern. */
function readEscape(source: string, at: number): Escape {
  const next = source[at + 1];
  if (next === undefined) throw new SyntaxError(`lowerCasePattern: trailing backslash in ${source}`);
  const fixed = (length: number, hex: string) => ({
    text: source.slice(at, at + length),
    value: Number.parseInt(hex, 16),
  });
  if (next === "x" && /^[0-9a-fA-F]{2}$/.test(source.slice(at + 2, at + 4)))
    return fixed(4, source.slice(at + 2, at + 4));
  if (next === "u" && /^[0-9a-fA-F]{4}$/.test(source.slice(at + 2, at + 6)))
    return fixed(6, source.slice(at + 2, at + 6));
  if (next === "u" && source[at + 2] === "{") {
    const close = source.indexOf("}", at);
    return { text: source.slice(at, close + 1), value: Number.parseInt(source.slice(at + 3, close), 16) };
  }
  if ((next === "p" || next === "P") && source[at + 2] === "{")
    return { text: source.slice(at, source.indexOf("}", at) + 1) };
  if (next === "k" || next === "c" || /[1-9]/.test(next))
    throw new SyntaxError(`lowerCasePattern: \\${next} is not supported (in ${source})`);
  // Class escapes (\s, \d, …) stand for sets without case; the rest (\n, \., \\) for one character.
  if (/[sSdDwWbB]/.test(next)) return { text: source.slice(at, at + 2) };
  return { text: source.slice(at, at + 2), value: CONTROL_ESCAPES[next] ?? next.codePointAt(0)! };
}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, v: 11, f: 12, "0": 0 };

/**
 * A class with the small letter of every capital it holds added beside it (`A-Z` → `A-Za-z`, `[^A-F]` → `[^A-Fa-f]`):
 * kept whole, so what it matched on other characters does not change.
 */
function lowerCaseClass(text: string): string {
  let i = text[1] === "^" ? 2 : 1;
  let out = text.slice(0, i);
  const atom = (): { text: string; value: number | undefined } => {
    if (text[i] === "\\") {
      const escape = readEscape(text, i);
      i += escape.text.length;
      return { text: escape.text, value: escape.value };
    }
    const value = text.codePointAt(i)!;
    const length = value > 0xffff ? 2 : 1;
    const piece = text.slice(i, i + length);
    i += length;
    return { text: piece, value };
  };
  while (i < text.length - 1) {
    const first = atom();
    const low = first.value;
    let high = first.value;
    let written = first.text;
    if (text[i] === "-" && i + 1 < text.length - 1) {
      i++;
      const last = atom();
      written += `-${last.text}`;
      high = last.value;
      if (low === undefined || high === undefined)
        throw new SyntaxError(`lowerCasePattern: range with a class escape in ${text}`);
    }
    out += written;
    if (low !== undefined && high !== undefined) {
      const from = Math.max(low, 0x41);
      const to = Math.min(high, 0x5a);
      if (from <= to)
        out +=
          from === to
            ? String.fromCharCode(from + 32)
            : `${String.fromCharCode(from + 32)}-${String.fromCharCode(to + 32)}`;
    }
  }
  return `${out}]`;
}

function isCapital(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

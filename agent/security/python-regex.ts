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
 */
const WORD = String.raw`[\p{L}\p{N}\p{Mn}\p{Pc}]`;
const WORD_START = `(?<!${WORD})`;
const WORD_END = `(?!${WORD})`;

export function compilePythonPattern(source: string, flags = "iu"): RegExp {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) {
      const next = source[i + 1]!;
      if (next === "w") out += inClass ? String.raw`\p{L}\p{N}\p{Mn}\p{Pc}` : WORD;
      else if (next === "b" && !inClass) out += /[\p{L}\p{N}_(]/u.test(source[i + 2] ?? "") ? WORD_START : WORD_END;
      else out += c + next;
      i++;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return new RegExp(out, flags);
}

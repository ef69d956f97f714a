import { decodeTags, type InvisibleHit } from "./invisible-chars.js";
import type { Hit } from "./threat-patterns.js";

/**
 * Snippets for the context inspector: what matched, with a few words either side, on one line, at most ~160
 * characters, so that whoever wrote the file sees at once which words tripped the scanner. Invisible and control
 * characters are shown as ⟨U+XXXX⟩, so a snippet can neither hide nor reorder anything in the inspector itself.
 */
const CONTEXT = 40;
const MAX_BODY = 110;
const HIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufe00-\ufe0e]|\udb40[\udc00-\udfff]/g;

/** The snippet of a pattern match; `normalised` is what the user wrote (NFKC), `matched` it with look-alikes folded. */
export function matchSnippet(normalised: string, matched: string, hit: Hit): string {
  const snippet = around(normalised, hit.index, hit.end);
  return matched.slice(hit.index, hit.end) === normalised.slice(hit.index, hit.end)
    ? snippet
    : `${snippet} (look-alike Cyrillic/Greek letters)`;
}

/** The snippet of an invisible character: where it sits, or for Unicode tags the text they hide. */
export function invisibleSnippet(text: string, hit: InvisibleHit): string {
  const codePoint = text.codePointAt(hit.index)!;
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) {
    const hidden = decodeTags(text.slice(hit.index, hit.index + hit.length));
    return `hidden text in Unicode tag characters: "${printable(clip(hidden, MAX_BODY))}"`;
  }
  return around(text, hit.index, hit.index + hit.length);
}

function around(text: string, index: number, end: number): string {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  const newline = text.indexOf("\n", end);
  const lineEnd = newline < 0 ? text.length : newline;
  let before = text.slice(Math.max(lineStart, index - CONTEXT), index);
  if (index - CONTEXT > lineStart) before = `…${before.replace(/^\S*\s/, "")}`;
  let after = text.slice(end, Math.min(lineEnd, end + CONTEXT));
  if (end + CONTEXT < lineEnd) after = `${after.replace(/\s\S*$/, "")}…`;
  return printable(`${before}${clip(text.slice(index, end), MAX_BODY)}${after}`)
    .replace(/\s+/g, " ")
    .trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 35)} … ${text.slice(-30)}`;
}

function printable(text: string): string {
  return text.replace(HIDDEN, (ch) => `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

import { INVISIBLE_CHARS } from "./threat-patterns.js";

/**
 * Invisible and deceptive characters, looked for in the raw text before anything is normalised.
 *
 * Upstream's 17 (zero-width characters and bidirectional controls, threat-patterns.ts) come first, in their order,
 * then those upstream misses (issue #11):
 * - U+00AD soft hyphen, U+200E / U+200F left-to-right and right-to-left marks, U+061C Arabic letter mark, U+2061
 *   function application: invisible in rendered text, so they can split a key word or reorder a line unseen;
 * - Unicode Tag characters U+E0000–U+E007F, which mirror ASCII invisibly ("ASCII smuggling"): a whole instruction
 *   can hide in them. The one legitimate use, the tag sequence of a subdivision flag (🏴 + tags + cancel tag, e.g.
 *   the flag of Scotland), is not flagged;
 * - variation selectors beyond emoji use: VS17–VS256 (U+E0100–U+E01EF), and runs of two or more of VS1–VS15
 *   (U+FE00–U+FE0E), the carriers of data hidden behind a visible character. A single VS1–VS15 after a character is a
 *   standardised variant and U+FE0F (VS16) asks for emoji presentation: neither is flagged.
 * U+200D ZERO WIDTH JOINER is one of upstream's, but between two emoji it builds an emoji ZWJ sequence (👩‍💻): only
 * a joiner outside such a sequence is flagged.
 */
export const EXTRA_INVISIBLE_CHARS: readonly string[] = ["\u00ad", "\u200e", "\u200f", "\u061c", "\u2061"];

export interface InvisibleHit {
  readonly id: string;
  readonly index: number;
  /** How many UTF-16 units the hit covers (a run of tag characters or selectors counts as one hit). */
  readonly length: number;
}

const ZWJ = "\u200d";
// One pass to rule out the common case, a text with none of them (\udb40 leads the tags and VS17–VS256).
const ANY_CANDIDATE = /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufe00-\ufe0e\udb40]/;
const TAG_RUN = /(?:\udb40[\udc00-\udc7f])+/g;
const FLAG_TAGS = /^\u{1F3F4}(?:[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]){2,6}\u{E007F}$/u;
const VS_SUPPLEMENT = /(?:\udb40[\udd00-\uddef])+/;
const VS_RUN = /[\ufe00-\ufe0e]{2,}/;
const EMOJI_BEFORE = /(?:\p{Extended_Pictographic}|\p{Emoji_Modifier})\ufe0f?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** Every kind of invisible character in `text`, once each, at its first occurrence. */
export function findInvisible(text: string): InvisibleHit[] {
  if (!ANY_CANDIDATE.test(text)) return [];
  const hits: InvisibleHit[] = [];
  for (const ch of [...INVISIBLE_CHARS, ...EXTRA_INVISIBLE_CHARS]) {
    const at = ch === ZWJ ? firstLoneJoiner(text) : text.indexOf(ch);
    if (at >= 0) hits.push({ id: invisibleId(ch.codePointAt(0)!), index: at, length: 1 });
  }
  const tags = firstTagRun(text);
  if (tags) hits.push(tags);
  for (const pattern of [VS_SUPPLEMENT, VS_RUN]) {
    const match = pattern.exec(text);
    if (match) hits.push({ id: invisibleId(match[0].codePointAt(0)!), index: match.index, length: match[0].length });
  }
  return hits;
}

/** upstream's id for an invisible character: `invisible_unicode_U+200B`. */
export function invisibleId(codePoint: number): string {
  return `invisible_unicode_U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Tag characters decoded to the ASCII they mirror ("ASCII smuggling"), for showing what was hidden. */
export function decodeTags(run: string): string {
  let out = "";
  for (const ch of run) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
  }
  return out;
}

function firstTagRun(text: string): InvisibleHit | undefined {
  if (!text.includes("\udb40")) return undefined;
  TAG_RUN.lastIndex = 0;
  for (let match = TAG_RUN.exec(text); match; match = TAG_RUN.exec(text)) {
    const flag = match.index >= 2 && FLAG_TAGS.test(text.slice(match.index - 2, match.index) + match[0]);
    if (!flag) return { id: invisibleId(match[0].codePointAt(0)!), index: match.index, length: match[0].length };
  }
  return undefined;
}

function firstLoneJoiner(text: string): number {
  for (let at = text.indexOf(ZWJ); at >= 0; at = text.indexOf(ZWJ, at + 1)) {
    const inEmoji =
      EMOJI_BEFORE.test(text.slice(Math.max(0, at - 3), at)) && EMOJI_AFTER.test(text.slice(at + 1, at + 3));
    if (!inEmoji) return at;
  }
  return -1;
}

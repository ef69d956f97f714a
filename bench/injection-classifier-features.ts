/**
 * How the injection classifier (injection-classifier-model.ts) reads a text, shared with its training script
 * (train-injection-classifier.ts) so that both see exactly the same features.
 *
 * A text is cut into paragraphs (blank lines) and each paragraph into segments: sentences, list items, headings, and
 * chunks of at most MAX_SEGMENT characters. A segment's tokens are words and class tokens: what varies from one attack
 * to the next (the URL, the path, the blob, the variable, the number) becomes one token (<url>, <path>, <b64>, <var>,
 * <num>, …), so the model learns the shape of "send $TOKEN to <url>", not one attacker's host. Features are the
 * tokens and the pairs of adjacent tokens (bigrams) within a segment.
 */

export interface Segment {
  readonly start: number;
  readonly end: number;
  /** Index of the paragraph the segment belongs to: windows never span two paragraphs. */
  readonly paragraph: number;
}

/** Longer runs without a sentence end (code, tables, run-on lines) are cut, so that no one segment dominates. */
const MAX_SEGMENT = 400;

/** A window of up to this many consecutive segments is scored: long enough for an order and its pretext. */
export const MAX_WINDOW_SEGMENTS = 3;

// One pass over the lower-cased text. Alternatives in order of precedence; each group is a class token.
const TOKEN = new RegExp(
  [
    String.raw`((?:https?|ftp|wss?)://[^\s)\]>"'\x60]+|www\.[^\s)\]>"'\x60]+)`, // 1 url
    String.raw`((?:~|\$home|%\w+%)?(?:\.{0,2}/[\w.@+-]+){2,}/?|~/[\w.@/+-]*|\$home/[\w.@/+-]*)`, // 2 path
    String.raw`([a-z0-9+/_-]{28,}={0,2})`, // 3 blob (base64, hex, keys)
    String.raw`((?:\\x[0-9a-f]{2}){2,}|(?:\\u[0-9a-f]{4}){1,})`, // 4 escapes
    String.raw`(\$\{?[a-z_][a-z0-9_]*\}?|%[a-z_][a-z0-9_]*%)`, // 5 variable
    String.raw`([\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)`, // 6 email
    String.raw`((?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|xyz|ru|cn|app|ai|co|sh|site|top|info|me|cloud|link|tk|biz|online)(?![\w.]))`, // 7 host
    String.raw`(\d+(?:[.,:]\d+)*)`, // 8 number
    String.raw`([a-z][a-z0-9]*(?:['’][a-z]+)?)`, // 9 word (base64, sha256 and utf8 are words)
    String.raw`([|\x60<>\[\]{}#=!&$])`, // 10 sign
  ].join("|"),
  "g",
);
const CLASS_TOKENS = ["", "<url>", "<path>", "<b64>", "<esc>", "<var>", "<email>", "<host>", "<num>"];

/** A segment with its tokens. */
export interface TokenSegment extends Segment {
  readonly tokens: readonly string[];
}

/**
 * The segments of `lower` (already NFKC-normalised and lower-cased) with their tokens, in one pass of the tokeniser
 * over the whole text: a token belongs to the segment it starts in.
 */
export function tokenSegments(lower: string): TokenSegment[] {
  const segments = segmentsOf(lower);
  const out = segments.map((s) => ({ ...s, tokens: [] as string[] }));
  let k = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(lower); m && k < out.length; m = TOKEN.exec(lower)) {
    while (k < out.length && m.index >= out[k]!.end) k++;
    if (k === out.length) break;
    if (m.index < out[k]!.start) continue;
    out[k]!.tokens.push(tokenOf(m));
  }
  return out;
}

function tokenOf(m: RegExpExecArray): string {
  let group = 1;
  while (group < 11 && m[group] === undefined) group++;
  // A long run of letters and dashes without a digit is an identifier, not an encoded blob.
  if (group === 3 && !/[0-9+/]/.test(m[3]!)) return "<id>";
  // A path in a home directory (~/.ssh/…, $HOME/.aws/…) is where credentials live: a class of its own.
  if (group === 2 && /^(?:~|\$home)/.test(m[2]!)) return "<home>";
  if (group <= 8) return CLASS_TOKENS[group]!;
  if (group === 9) return m[9]!.replace("’", "'");
  return m[10]!;
}

// Function words and the pronouns of address are not features on their own (nor in pairs of two): every paragraph of
// prose has them, and a model that weighs them learns "prose addressed to the agent" instead of "attack". They still
// stand in pairs with a content word ("the user", "your instructions").
const STOPWORDS = new Set(
  (
    "a an the to of in on at by for from with as and or but if then so than that this these those it its is are was " +
    "were be been being do does did have has had will would can could should may might must shall i me my we us our " +
    "you your yours they them their he she his her what which who when where how all any each every some no not"
  ).split(" "),
);

/**
 * The features of one segment's tokens: its distinct unigrams and bigrams (joined by a space), each once. Presence,
 * not counts: a table row of twenty pipes or a list of ten URLs is not twenty times as suspect as one.
 */
export function featuresOf(tokens: readonly string[]): string[] {
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const stop = STOPWORDS.has(tokens[i]!);
    if (!stop) out.add(tokens[i]!);
    if (i > 0 && !(stop && STOPWORDS.has(tokens[i - 1]!))) out.add(`${tokens[i - 1]} ${tokens[i]}`);
  }
  return [...out];
}

// Where a segment ends: after a sentence's end, at a blank line, before a list item, heading, quote, table row or
// fence, and after a heading line. Hard-wrapped prose (one sentence over several lines) stays one segment.
const BREAK = /[.!?]+["')\]*_]*(?=\s)|\n(?=[ \t]*(?:[-*+>#|]|\d+[.)]\s|```|~~~))|(?<=^[ \t]*#[^\n]*)\n|\n[ \t]*\n/gm;
const PARAGRAPH = /\n[ \t]*\n/y;

/** The segments of `text`, in order, none empty or blank. */
export function segmentsOf(text: string): Segment[] {
  const out: Segment[] = [];
  let paragraph = 0;
  let start = 0;
  const push = (from: number, to: number) => {
    for (let s = from; s < to; ) {
      let e = Math.min(to, s + MAX_SEGMENT);
      if (e < to) {
        const space = text.lastIndexOf(" ", e);
        if (space > s + MAX_SEGMENT / 2) e = space;
      }
      if (/\S/.test(text.slice(s, e))) out.push({ start: s, end: e, paragraph });
      s = e;
    }
  };
  BREAK.lastIndex = 0;
  for (let m = BREAK.exec(text); m; m = BREAK.exec(text)) {
    const end = m.index + m[0].length;
    push(start, end);
    PARAGRAPH.lastIndex = m.index;
    if (PARAGRAPH.test(text)) paragraph++;
    start = end;
  }
  push(start, text.length);
  return out;
}

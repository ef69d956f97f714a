import { DANGEROUS_ACT, STEALTH } from "./pattern-acts.js";
import type { Hit } from "./threat-patterns.js";
import { enclosingPair } from "./threat-quoted.js";

/**
 * Whether a chat-template token (fake_role_marker) stands in a documented sample rather than a counterfeit turn: the
 * context files of model and inference projects show their prompt format in a fenced code block ("```\n<|im_start|>
 * system\nYou are a helpful assistant.<|im_end|>\n```" under "## Chat format"), and blocking such a file would
 * block the project. A sample is a fenced block that the text before it (or its info string) introduces as a format,
 * template or tokenizer matter, and whose content asks for nothing harmful: no act that sends data out, touches
 * secrets, runs remote code, destroys or hides (pattern-acts.ts). A counterfeit turn that carries such an act is
 * still reported, fenced or not; one in ordinary prose or an unannounced fence is reported as before.
 */
const INTRODUCED =
  /(?:chat|prompt|conversation|instruct(?:ion)?)[\s_-]*(?:templat|format)|templat(?:e|es|ing)\b|special\s+tokens?|tokeni[sz]|chatml|fine-?tun|apply_chat_template|eos\s+token|bos\s+token|\bformat\b|wrapped\s+(?:as|in|with)\b|\bexpects?\s+(?:\w+\s+){0,2}(?:prompts?|inputs?|messages)\b|\b(?:test\s+)?fixtures?\b|\btranscripts?\b|\bsample\s+(?:conversation|dialog(?:ue)?|chat)\b|\buser\s+prompt\b|\binference\s+code\b|\bas\s+a\s+new\s+role\b|^#{1,6}[ \t]+(?:an?\s+)?example\s+(?:inputs?|outputs?|prompts?|completions?|conversations?|messages?)\b/im;
const HARMFUL = new RegExp(`${DANGEROUS_ACT}|${STEALTH}`, "iu");
const FENCE = /^[ \t]{0,3}(?:```|~~~)/;
const LOOK_BACK = 400;

/** The fenced block around `index`, as offsets of its first content line, its closing fence, and its info string. */
function fenceAround(text: string, index: number): { start: number; end: number; info: string } | undefined {
  let open: { start: number; info: string } | undefined;
  let lineStart = 0;
  while (lineStart <= index) {
    const lineEnd = text.indexOf("\n", lineStart);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    if (FENCE.test(line)) open = open ? undefined : { start: lineEnd + 1, info: line.replace(FENCE, "") };
    if (lineEnd < 0) return undefined;
    lineStart = lineEnd + 1;
  }
  if (!open) return undefined;
  for (let from = lineStart; from < text.length; ) {
    const lineEnd = text.indexOf("\n", from);
    const line = text.slice(from, lineEnd < 0 ? text.length : lineEnd);
    if (FENCE.test(line)) return { start: open.start, end: from, info: open.info };
    if (lineEnd < 0) break;
    from = lineEnd + 1;
  }
  return undefined;
}

const TOKEN = /<\|[^|>\s]{1,30}\|>|<\/?[A-Za-z_]{1,30}>|\[\/?[A-Z_]{2,20}\]/g;

/** The text before a sample names, in backticks, a token the sample holds ("wraps each message in `<|im_start|>`"). */
function namesItsToken(before: string, content: string): boolean {
  for (const token of new Set(content.match(TOKEN) ?? [])) if (before.includes(`\`${token}\``)) return true;
  return false;
}

/** Where the sample around `hit` ends (a later token is looked for from there), or undefined when it is no sample. */
export function templateSampleEnd(text: string, hit: Hit, id: string): number | undefined {
  if (id !== "fake_role_marker") return undefined;
  // Each reading in turn: a hit may sit in one kind of block that is no sample and in another that is.
  const readings = [
    () => fenceAround(text, hit.index),
    () => indentedBlockAround(text, hit.index),
    () => inlineCodeAround(text, hit),
    () => transcriptAround(text, hit),
    () => replOutputAround(text, hit.index),
    () => mentionAround(text, hit),
  ];
  for (const read of readings) {
    const sample = read();
    if (!sample) continue;
    const content = text.slice(sample.start, sample.end);
    const before = text.slice(Math.max(0, sample.start - LOOK_BACK), sample.start);
    if (![before, sample.info, content].some((part) => INTRODUCED.test(part)) && !namesItsToken(before, content))
      continue;
    if (HARMFUL.test(content)) return undefined;
    return sample.end;
  }
  return undefined;
}

const INDENTED = /^(?: {4}|\t)/;

/** An indented code block (lines indented by four spaces or a tab, after a blank line) holding `index`. */
function indentedBlockAround(text: string, index: number): { start: number; end: number; info: string } | undefined {
  const lineStartOf = (at: number) => text.lastIndexOf("\n", at - 1) + 1;
  let start = lineStartOf(index);
  if (!INDENTED.test(text.slice(start, start + 4))) return undefined;
  // Back over indented and blank lines to the block's first line; the line before it must be blank (or none).
  for (let previous = start > 0 ? lineStartOf(start - 1) : -1; previous >= 0 && start > 0; ) {
    const line = text.slice(previous, start - 1);
    if (!INDENTED.test(line) && line.trim() !== "") break;
    start = previous;
    previous = start > 0 ? lineStartOf(start - 1) : -1;
  }
  while (text.slice(start, text.indexOf("\n", start)).trim() === "") start = text.indexOf("\n", start) + 1;
  const before = text.slice(lineStartOf(Math.max(0, start - 1)), Math.max(0, start - 1));
  if (start > 0 && before.trim() !== "") return undefined;
  let end = start;
  for (;;) {
    const lineEnd = text.indexOf("\n", end);
    const line = text.slice(end, lineEnd < 0 ? text.length : lineEnd);
    if (!INDENTED.test(line) && line.trim() !== "") break;
    if (lineEnd < 0) return { start, end: text.length, info: "" };
    end = lineEnd + 1;
  }
  return { start, end, info: "" };
}

/** An inline code span (`…` on one line) holding the whole hit: "repeat `[INST] ... [/INST]` for each message". */
function inlineCodeAround(text: string, hit: Hit): { start: number; end: number; info: string } | undefined {
  const pair = enclosingPair(text, hit, /`/);
  if (!pair) return undefined;
  const lineStart = text.lastIndexOf("\n", hit.index - 1) + 1;
  const lineEnd = text.indexOf("\n", hit.index);
  // The rest of the line goes with it: the sentence that says what the span is.
  return { start: pair.open + 1, end: pair.close, info: text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd) };
}

const TURN_START = /^(?:Human|Assistant|HUMAN|ASSISTANT):/;

/**
 * A transcript in the legacy completion format ("\n\nHuman: …\n\nAssistant: …") held by a test fixture or an
 * example: its paragraphs from the hit on, as long as each opens with a turn. Only the legacy marker's hit (which
 * starts at the blank line) can be one.
 */
function transcriptAround(text: string, hit: Hit): { start: number; end: number; info: string } | undefined {
  const first = text.slice(hit.index).search(/\S/);
  const start = hit.index + Math.max(first, 0);
  if (!TURN_START.test(text.slice(start, start + 10))) return undefined;
  let end = start;
  for (;;) {
    const next = text.indexOf("\n\n", end);
    if (next < 0) return { start, end: text.length, info: "" };
    const after = next + text.slice(next).search(/\S|$/);
    if (!TURN_START.test(text.slice(after, after + 10))) return { start, end: next, info: "" };
    end = after;
  }
}

/** The paragraph around `index` when a line of it before `index` is an interactive prompt (">>> ", "In [3]:"). */
function replOutputAround(text: string, index: number): { start: number; end: number; info: string } | undefined {
  // Back line by line to the paragraph's start (a blank line), not over the whole text: a file has many hits.
  const lines: string[] = [];
  let start = text.lastIndexOf("\n", index - 1) + 1;
  while (start > 0) {
    const previous = text.lastIndexOf("\n", start - 2) + 1;
    const line = text.slice(previous, start - 1);
    if (line.trim() === "") break;
    lines.unshift(line);
    start = previous;
  }
  if (!lines.some((line) => /^[ \t]*(?:>>>|In \[\d+\]:)[ \t]/.test(line))) return undefined;
  const next = text.slice(index).search(/\n[ \t]*\n/);
  return { start, end: next < 0 ? text.length : index + next, info: lines.join("\n") };
}

/**
 * A token named in prose, mid-line, right after words that say it is one: "the tokenizer has added the control tokens
 * [INST] and [/INST]". The sentence holding it is the sample.
 */
function mentionAround(text: string, hit: Hit): { start: number; end: number; info: string } | undefined {
  const lineStart = text.lastIndexOf("\n", hit.index - 1) + 1;
  const before = text.slice(Math.max(lineStart, hit.index - 60), hit.index);
  if (
    !/\S/.test(text.slice(lineStart, hit.index)) ||
    !/\b(?:tokens?|markers?|tags?)\s+(?:(?:like|such\s+as|as)\s+)?$/i.test(before)
  )
    return undefined;
  const stop = text.slice(hit.end).search(/[.!?](?:\s|$)|\n[ \t]*\n/);
  // From the token on: the words that name it ("control tokens") are no act on secrets.
  return { start: hit.index, end: stop < 0 ? text.length : hit.end + stop + 1, info: before };
}

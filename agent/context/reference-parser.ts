/** One `@…` reference in a user's message (hermes-behaviour.md §5.1). */
export interface ContextReference {
  /** The text as written, trailing punctuation included. */
  readonly raw: string;
  readonly kind: "diff" | "staged" | "file" | "folder" | "git" | "url";
  /** The path, count or URL, unquoted and without trailing punctuation. */
  readonly target: string;
  readonly lineStart?: number;
  readonly lineEnd?: number;
}

const QUOTED = "(?:`[^`\\n]+`|\"[^\"\\n]+\"|'[^'\\n]+')";
// Upstream's REFERENCE_PATTERN: not after a word character or `/` (so e-mail addresses and paths are ignored).
const REFERENCE = new RegExp(
  `(?<![\\p{L}\\p{N}_/])@(?:(diff|staged)\\b|(file|folder|git|url):(${QUOTED}(?::\\d+(?:-\\d+)?)?|\\S+))`,
  "gu",
);
const CLOSERS: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{" };

export function parseReferences(message: string): ContextReference[] {
  const refs: ContextReference[] = [];
  for (const match of message.matchAll(REFERENCE)) {
    if (match[1]) {
      refs.push({ raw: match[0], kind: match[1] as "diff" | "staged", target: "" });
      continue;
    }
    const kind = match[2] as ContextReference["kind"];
    const value = stripTrailing(match[3]!);
    if (!value) continue;
    const ref: ContextReference =
      kind === "file" ? { raw: match[0], kind, ...fileTarget(value) } : { raw: match[0], kind, target: unquote(value) };
    refs.push(ref);
  }
  return refs;
}

/** Strips `,.;!?`, then closing brackets that have no opener in the value (`(see @file:a.py)`). */
function stripTrailing(value: string): string {
  let v = value.replace(/[,.;!?]+$/, "");
  for (;;) {
    const last = v.at(-1);
    const opener = last ? CLOSERS[last] : undefined;
    if (!opener || count(v, last!) <= count(v, opener)) return v;
    v = v.slice(0, -1).replace(/[,.;!?]+$/, "");
  }
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

function fileTarget(value: string): { target: string; lineStart?: number; lineEnd?: number } {
  const quoted = /^(`[^`]+`|"[^"]+"|'[^']+')(?::(\d+)(?:-(\d+))?)?$/.exec(value);
  const bare = /^(.*?):(\d+)(?:-(\d+))?$/.exec(value);
  const m = quoted ?? bare;
  if (!m) return { target: unquote(value) };
  const start = Number(m[2]);
  return m[2] === undefined
    ? { target: unquote(m[1]!) }
    : { target: unquote(m[1]!), lineStart: start, lineEnd: m[3] ? Number(m[3]) : start };
}

function unquote(value: string): string {
  return /^(`[^`]*`|"[^"]*"|'[^']*')$/.test(value) ? value.slice(1, -1) : value;
}

/** Upstream's `estimate_tokens_rough`: 4 characters a token, but every CJK/Hangul/Kana character counts as one. */
export function estimateTokens(text: string): number {
  const dense =
    text.match(/[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g)?.length ?? 0;
  return dense + Math.ceil((text.length - dense) / 4);
}

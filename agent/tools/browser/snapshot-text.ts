/*
 * The page as the model reads it: Playwright's accessibility snapshot in its "ai" mode, which is the format upstream's
 * agent-browser prints (`- button "Go" [ref=e7]`), refs included. A ref resolves to the element through Playwright's
 * own `aria-ref=e7` selector against the latest snapshot, so nothing here walks the DOM.
 */

/** Upstream's budget for one snapshot (SNAPSHOT_SUMMARIZE_THRESHOLD, aligned with web_extract's 15,000). */
export const SNAPSHOT_CHAR_LIMIT = 15_000;

/**
 * A wrapper line with nothing to say: an unnamed generic/group/none container with no text of its own. Its children
 * move up one level. `[active]`, `[ref=…]` and other bracketed states are allowed; a name or `: text` is not.
 */
const EMPTY_WRAPPER = /^- (?:generic|group|none|presentation)(?: \[[^\]]*\])*:?$/;

/**
 * Upstream's compact view (`snapshot -c`): the same tree without the empty structural wrappers that pad a modern page
 * (divs in divs), which are most of its lines and none of its meaning.
 */
export function compactSnapshot(snapshot: string): string {
  const out: string[] = [];
  // Indents of the wrappers dropped on the way down to the current line.
  const dropped: number[] = [];
  for (const line of snapshot.split("\n")) {
    const indent = line.length - line.trimStart().length;
    while (dropped.length > 0 && dropped[dropped.length - 1]! >= indent) dropped.pop();
    const body = line.trimStart();
    if (EMPTY_WRAPPER.test(body)) {
      dropped.push(indent);
      continue;
    }
    const shift = dropped.length * 2;
    out.push(" ".repeat(Math.max(0, indent - shift)) + body);
  }
  return out.join("\n");
}

/** The refs a snapshot offers (`[ref=e7]`), counted as upstream's `element_count`. */
export function countRefs(snapshot: string): number {
  return new Set(snapshot.match(/\[ref=[^\]\s]+\]/g) ?? []).size;
}

/**
 * The ref as Playwright's selector wants it: upstream's tools take `@e5` (and add the `@` when missing); `e5`,
 * `[ref=e5]` and `ref=e5` are read the same. Undefined when it is not a ref at all.
 */
export function refSelector(ref: string): string | undefined {
  const id = ref
    .trim()
    .replace(/^\[?ref=/, "")
    .replace(/\]$/, "")
    .replace(/^@/, "");
  return /^[A-Za-z][A-Za-z0-9]*\d$/.test(id) ? `aria-ref=${id}` : undefined;
}

import { structuredPatch } from "diff";

/** One change of a proposal: lines `oldStart…` (1-based, `oldLines` long) of the base become `newLines`. */
export interface Hunk {
  readonly index: number;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly removed: readonly string[];
  readonly added: readonly string[];
  /** 0-based line in the proposed text where the hunk's new lines start (for CodeLens placement). */
  readonly newLine: number;
}

/**
 * The hunks between a base text and a proposed text, computed once with the `diff` package and shared by the diff
 * view, the chat card and per-hunk accept/reject. Context lines are not part of a hunk: each hunk is only what
 * changes, so any subset can be applied on its own.
 */
export function computeHunks(base: string, proposed: string): Hunk[] {
  const patch = structuredPatch("a", "b", base, proposed, undefined, undefined, { context: 0 });
  return patch.hunks.map((h, index) => ({
    index,
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    removed: h.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1)),
    added: h.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1)),
    newLine: Math.max(0, h.newStart - 1),
  }));
}

/** The base text with only the accepted hunks applied (applied bottom-up so line numbers stay valid). */
export function applyHunks(base: string, hunks: readonly Hunk[], accepted: ReadonlySet<number>): string {
  const endsWithNewline = base.endsWith("\n");
  const lines = base === "" ? [] : (endsWithNewline ? base.slice(0, -1) : base).split("\n");
  const chosen = hunks.filter((h) => accepted.has(h.index)).sort((a, b) => b.oldStart - a.oldStart);
  for (const hunk of chosen) {
    // jsdiff numbers every hunk, insertions included, by the 1-based line it starts at (or is inserted before).
    lines.splice(hunk.oldStart - 1, hunk.oldLines, ...hunk.added);
  }
  const text = lines.join("\n");
  return lines.length > 0 && (endsWithNewline || base === "") ? `${text}\n` : text;
}

/** +/- line counts, for cards and titles. */
export function lineCounts(hunks: readonly Hunk[]): { added: number; removed: number } {
  return hunks.reduce((acc, h) => ({ added: acc.added + h.added.length, removed: acc.removed + h.removed.length }), {
    added: 0,
    removed: 0,
  });
}

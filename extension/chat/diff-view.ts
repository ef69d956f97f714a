import type { DiffLine, DiffView } from "../../webview-ui/protocol.js";
import { computeHunks } from "../review/hunks.js";

// Inline diffs in the chat are for reading: three lines of context, and a cap so a rewritten 10,000-line file does
// not cross the bridge whole (the editor's diff view shows everything).
const CONTEXT_LINES = 3;
const MAX_SHOWN_LINES = 400;

/**
 * An edit as the chat card shows it. The hunks are the review's own (review/hunks.ts, computed once with jsdiff):
 * card hunk i is the change the editor's CodeLens i keeps or discards, each shown with up to three lines of the
 * old text around it. `oldText` null is a new file, `newText` null a deletion.
 */
export function diffView(path: string, label: string, oldText: string | null, newText: string | null): DiffView {
  const change = oldText === null ? "create" : newText === null ? "delete" : "modify";
  const base = oldText ?? "";
  const oldLines = splitLines(base);
  let added = 0;
  let removed = 0;
  let budget = MAX_SHOWN_LINES;
  // How far the new text's line numbers have moved from the old text's, by the hunks before this one.
  let shift = 0;
  const hunks: Array<DiffView["hunks"][number]> = [];
  for (const hunk of computeHunks(base, newText ?? "")) {
    added += hunk.added.length;
    removed += hunk.removed.length;
    // 0-based index of the first old line the hunk replaces (or inserts before), as applyHunks reads it.
    const start = hunk.oldStart - 1;
    const newStart = start + shift;
    shift += hunk.added.length - hunk.oldLines;
    if (budget <= 0) continue;
    const before = oldLines.slice(Math.max(0, start - CONTEXT_LINES), start);
    const after = oldLines.slice(start + hunk.oldLines, start + hunk.oldLines + CONTEXT_LINES);
    const lines: DiffLine[] = [
      ...before.map((text) => ({ type: "context" as const, text })),
      ...hunk.removed.map((text) => ({ type: "remove" as const, text })),
      ...hunk.added.map((text) => ({ type: "add" as const, text })),
      ...after.map((text) => ({ type: "context" as const, text })),
    ];
    const oldCount = before.length + hunk.oldLines + after.length;
    const newCount = before.length + hunk.added.length + after.length;
    hunks.push({
      header: `@@ -${unifiedStart(start - before.length, oldCount)},${oldCount} +${unifiedStart(newStart - before.length, newCount)},${newCount} @@`,
      lines: lines.slice(0, budget),
    });
    budget -= lines.length;
  }
  return { path, label, change, added, removed, hunks };
}

/** Unified diff numbering: the 1-based first line, or for an empty side the line after which it sits. */
function unifiedStart(firstIndex: number, count: number): number {
  return count === 0 ? firstIndex : firstIndex + 1;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

import { structuredPatch } from "diff";
import type { DiffView } from "../../webview-ui/protocol.js";

// Inline diffs in the chat are for reading: three lines of context, and a cap so a rewritten 10,000-line file does
// not cross the bridge whole (the editor's diff view shows everything).
const CONTEXT_LINES = 3;
const MAX_SHOWN_LINES = 400;

/** An edit as the chat card shows it, computed once with jsdiff; `oldText` null is a new file, `newText` null a deletion. */
export function diffView(path: string, label: string, oldText: string | null, newText: string | null): DiffView {
  const change = oldText === null ? "create" : newText === null ? "delete" : "modify";
  const patch = structuredPatch(label, label, oldText ?? "", newText ?? "", undefined, undefined, {
    context: CONTEXT_LINES,
  });
  let added = 0;
  let removed = 0;
  let budget = MAX_SHOWN_LINES;
  const hunks: Array<DiffView["hunks"][number]> = [];
  for (const hunk of patch.hunks) {
    const lines = hunk.lines
      .filter((line) => !line.startsWith("\\"))
      .map((line) => ({
        type: line[0] === "+" ? ("add" as const) : line[0] === "-" ? ("remove" as const) : ("context" as const),
        text: line.slice(1),
      }));
    added += lines.filter((l) => l.type === "add").length;
    removed += lines.filter((l) => l.type === "remove").length;
    if (budget <= 0) continue;
    hunks.push({
      header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      lines: lines.slice(0, budget),
    });
    budget -= lines.length;
  }
  return { path, label, change, added, removed, hunks };
}

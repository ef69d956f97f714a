import type { DiffView } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { actionButton, collapsible, h, icon } from "./dom.js";

/** Past this many lines a diff is cut in the card; "Open diff" shows it whole in the editor. */
const MAX_LINES = 200;
/** Diffs up to this size start expanded; larger ones start as their one-line summary. */
const OPEN_BY_DEFAULT = 60;

const SIGN = { add: "+", remove: "−", context: " " } as const;
const CHANGE_LABEL = { create: "new file", modify: "", delete: "deleted" } as const;

/** `+3 −1`, with a readable label for screen readers. */
export function diffCounts(doc: Document, added: number, removed: number): HTMLSpanElement {
  return h(
    doc,
    "span",
    { class: "diff-counts", attrs: { "aria-label": `${added} added, ${removed} removed` } },
    h(doc, "span", { class: "diff-added" }, `+${added}`),
    " ",
    h(doc, "span", { class: "diff-removed" }, `−${removed}`),
  );
}

/** One file's edit as an inline diff: the file (a button that opens it), the counts, then the hunks line by line. */
export function renderDiff(diff: DiffView, key: string, ctx: RenderContext): HTMLElement {
  const { doc } = ctx;
  const total = diff.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
  const body = h(doc, "div", {
    class: "diff-body",
    attrs: { role: "group", "aria-label": `Changes to ${diff.label}` },
  });
  let shown = 0;
  for (const hunk of diff.hunks) {
    if (shown >= MAX_LINES) break;
    body.append(h(doc, "div", { class: "diff-hunk" }, hunk.header));
    for (const line of hunk.lines) {
      if (shown++ >= MAX_LINES) break;
      body.append(
        h(
          doc,
          "div",
          { class: `diff-line diff-${line.type}` },
          h(doc, "span", { class: "diff-sign", attrs: { "aria-hidden": "true" } }, SIGN[line.type]),
          h(doc, "span", { class: "diff-text" }, line.text),
        ),
      );
    }
  }
  if (total > MAX_LINES)
    body.append(
      h(doc, "div", { class: "diff-more" }, `… ${total - MAX_LINES} more lines: open the diff to see them all`),
    );
  const firstLine = firstChangedLine(diff);
  return collapsible(
    doc,
    key,
    ctx.sections.isOpen(key, total <= OPEN_BY_DEFAULT),
    "diff",
    [
      icon(doc, "diff"),
      actionButton(
        doc,
        "open-location",
        { path: diff.path, line: firstLine?.toString() },
        { label: `Open ${diff.label}`, text: diff.label, class: "link-button diff-file" },
      ),
      CHANGE_LABEL[diff.change] ? h(doc, "span", { class: "diff-change" }, CHANGE_LABEL[diff.change]) : null,
      diffCounts(doc, diff.added, diff.removed),
    ],
    [body],
  );
}

/** The new file's line where the first hunk starts (`@@ -3,4 +5,6 @@` → 5), to open the file there. */
function firstChangedLine(diff: DiffView): number | undefined {
  const match = diff.hunks[0]?.header.match(/\+(\d+)/);
  return match ? Math.max(1, Number(match[1])) : undefined;
}

import type { FileLocation, ToolItem, ToolKind, ToolStatus } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { renderDiff } from "./diff.js";
import { actionButton, collapsible, h, icon, plural } from "./dom.js";
import { renderReviewBar } from "./review-bar.js";

export const TOOL_ICON: Record<ToolKind, string> = {
  read: "file",
  edit: "edit",
  delete: "trash",
  move: "arrow-swap",
  search: "search",
  execute: "terminal",
  think: "lightbulb",
  fetch: "globe",
  switch_mode: "settings-gear",
  other: "tools",
};

const STATUS: Record<ToolStatus, { readonly icon: string; readonly text: string }> = {
  pending: { icon: "circle-large-outline", text: "Pending" },
  in_progress: { icon: "loading codicon-modifier-spin", text: "Running" },
  completed: { icon: "check", text: "Done" },
  failed: { icon: "error", text: "Failed" },
};

/** Terminal output can run to megabytes; the card keeps the tail, which is what one reads after a run. */
const MAX_OUTPUT = 20_000;

export function statusBadge(doc: Document, status: ToolStatus): HTMLElement {
  return h(doc, "span", { class: `badge status-${status}` }, icon(doc, STATUS[status].icon), STATUS[status].text);
}

export function locationButtons(doc: Document, locations: readonly FileLocation[]): HTMLElement | null {
  if (locations.length === 0) return null;
  return h(
    doc,
    "div",
    { class: "locations" },
    ...locations.map((location) => {
      const text = location.line ? `${location.label}:${location.line}` : location.label;
      return actionButton(
        doc,
        "open-location",
        { path: location.path, line: location.line?.toString() },
        { label: `Open ${text}`, icon: "go-to-file", text, class: "link-button" },
      );
    }),
  );
}

/** A tool call as a card: what it is, how it went, where it looked, what it changed, what it printed. */
export function renderTool(item: ToolItem, ctx: RenderContext): Node[] {
  const { doc } = ctx;
  const header = h(
    doc,
    "div",
    { class: "card-header" },
    icon(doc, TOOL_ICON[item.toolKind]),
    h(doc, "span", { class: "card-title" }, item.title),
    statusBadge(doc, item.status),
  );
  const diffs = item.diffs.map((diff, i) => renderDiff(diff, `${item.id}:diff:${i}`, ctx));
  return [
    header,
    locationButtons(doc, item.locations),
    ...diffs,
    item.review ? renderReviewBar(doc, item.review) : null,
    renderImages(item, ctx),
    renderOutput(item, ctx),
  ].filter((node): node is HTMLElement => node !== null);
}

/** What the tool showed (a screenshot), full width; the host kept only known image types in plain base64. */
function renderImages(item: ToolItem, ctx: RenderContext): HTMLElement | null {
  if (!item.images?.length) return null;
  const { doc } = ctx;
  return h(
    doc,
    "div",
    { class: "tool-images" },
    ...item.images.map((image, i) =>
      h(doc, "img", {
        class: "tool-image",
        attrs: { src: `data:${image.mimeType};base64,${image.data}`, alt: `Image ${i + 1} from ${item.title}` },
      }),
    ),
  );
}

function renderOutput(item: ToolItem, ctx: RenderContext): HTMLElement | null {
  if (!item.output) return null;
  const { doc } = ctx;
  const trimmed = item.output.length > MAX_OUTPUT;
  const text = trimmed ? item.output.slice(-MAX_OUTPUT) : item.output;
  const lines = countLines(item.output);
  const key = `${item.id}:output`;
  return collapsible(
    doc,
    key,
    ctx.sections.isOpen(key, false),
    "output",
    [icon(doc, "output"), `Output · ${plural(lines, "line")}`],
    [
      trimmed
        ? h(
            doc,
            "div",
            { class: "output-trimmed" },
            `… earlier output not shown (${plural(item.output.length - MAX_OUTPUT, "character")})`,
          )
        : null,
      h(doc, "pre", { class: "output-text" }, text),
    ],
  );
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < text.length - 1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

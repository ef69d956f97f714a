import { MarkdownView } from "../markdown.js";
import type { ChatItem } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { h } from "./dom.js";
import { renderPermission } from "./permission.js";
import { renderPlan } from "./plan.js";
import { renderSetup } from "./setup-card.js";
import { renderNotice, renderReview, renderThought } from "./simple.js";
import { renderTool } from "./tool.js";
import { renderCheckpoint, renderUser } from "./turn-actions.js";

/** One transcript item in the DOM. `update` is called only when the item's version changed. */
export interface ItemView {
  readonly element: HTMLElement;
  update(item: ChatItem): void;
}

const NOTICE_LEVEL = { info: "Notice", warning: "Warning", error: "Error" } as const;

/** What a screen reader announces for the item (the article's accessible name). */
function label(item: ChatItem): string {
  switch (item.kind) {
    case "user":
      return "You";
    case "agent":
      return "Hermes";
    case "thought":
      return "Hermes's thought";
    case "tool":
      return `Tool call: ${item.title}`;
    case "plan":
      return "Plan";
    case "permission":
      return `Permission request: ${item.title}`;
    case "review":
      return `Edit to ${item.diff.label}`;
    case "notice":
      return NOTICE_LEVEL[item.level];
    case "checkpoint":
      return `Checkpoint before turn ${item.turn}`;
    case "setup":
      return "Set up a model";
  }
}

function classes(item: ChatItem): string {
  const base = `item item-${item.kind}`;
  if (item.kind === "tool") return `${base} card status-${item.status}`;
  if (item.kind === "notice") return `${base} level-${item.level}`;
  if (item.kind === "permission") return `${base} card${item.answer === undefined ? " pending" : ""}`;
  if (item.kind === "plan" || item.kind === "review" || item.kind === "setup") return `${base} card`;
  return base;
}

function content(item: ChatItem, ctx: RenderContext): Node[] {
  switch (item.kind) {
    case "user":
      return renderUser(item, ctx);
    case "thought":
      return renderThought(item, ctx);
    case "tool":
      return renderTool(item, ctx);
    case "plan":
      return renderPlan(item, ctx);
    case "permission":
      return renderPermission(item, ctx);
    case "review":
      return renderReview(item, ctx);
    case "notice":
      return renderNotice(item, ctx);
    case "checkpoint":
      return renderCheckpoint(item, ctx);
    case "setup":
      return renderSetup(item, ctx);
    case "agent":
      throw new Error("agent items render incrementally (MarkdownView)");
  }
}

/**
 * The view for one item. Agent replies keep a MarkdownView so streaming re-renders only the growing block; every
 * other kind is small and is rebuilt whole when its version changes (its open/closed sections come from memory).
 */
export function createItemView(item: ChatItem, ctx: RenderContext): ItemView {
  const element = h(ctx.doc, "article", { attrs: { "data-id": item.id } });
  let markdown: MarkdownView | undefined;
  const update = (next: ChatItem): void => {
    element.className = classes(next);
    element.setAttribute("aria-label", label(next));
    if (next.kind === "agent") {
      if (!markdown) {
        markdown = new MarkdownView(ctx.doc, ctx.sanitizer);
        element.replaceChildren(markdown.element);
      }
      markdown.update(next.markdown);
      return;
    }
    markdown = undefined;
    element.replaceChildren(...content(next, ctx));
  };
  update(item);
  return { element, update };
}

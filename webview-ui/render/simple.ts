import type { Attachment, NoticeItem, ReviewItem, ThoughtItem } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { renderDiff } from "./diff.js";
import { collapsible, h, icon } from "./dom.js";
import { renderReviewBar } from "./review-bar.js";

export const ATTACHMENT_ICON: Record<Attachment["kind"], string> = {
  file: "file",
  selection: "list-selection",
  image: "file-media",
};

export function attachmentChip(doc: Document, attachment: Attachment, ...extra: Node[]): HTMLElement {
  return h(
    doc,
    "span",
    { class: "chip", attrs: { title: attachment.uri ?? attachment.label } },
    icon(doc, ATTACHMENT_ICON[attachment.kind]),
    h(doc, "span", { class: "chip-label" }, attachment.label),
    ...extra,
  );
}

/** Thoughts start collapsed: they are long and rarely read, but one click away. */
export function renderThought(item: ThoughtItem, ctx: RenderContext): Node[] {
  const key = `${item.id}:thought`;
  return [
    collapsible(
      ctx.doc,
      key,
      ctx.sections.isOpen(key, false),
      "thought",
      [icon(ctx.doc, "lightbulb"), "Thought"],
      [h(ctx.doc, "div", { class: "thought-text" }, item.text)],
    ),
  ];
}

const NOTICE_ICON: Record<NoticeItem["level"], string> = { info: "info", warning: "warning", error: "error" };

export function renderNotice(item: NoticeItem, ctx: RenderContext): Node[] {
  return [icon(ctx.doc, NOTICE_ICON[item.level]), h(ctx.doc, "span", { class: "notice-text" }, item.text)];
}

/** An edit reviewed on its own (no tool card to hang it on). */
export function renderReview(item: ReviewItem, ctx: RenderContext): Node[] {
  return [renderDiff(item.diff, `${item.id}:diff`, ctx), renderReviewBar(ctx.doc, item.review)];
}

import type { CheckpointItem, UserItem } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { actionButton, h } from "./dom.js";
import { attachmentChip } from "./simple.js";

/**
 * A user's message, with what can be done with it: "Edit & resend" on messages of the conversation, "Retry" on the
 * latest. The host decides which (it knows which messages the server answered itself); the stylesheet hides the
 * buttons while a turn runs.
 */
export function renderUser(item: UserItem, ctx: RenderContext): Node[] {
  const { doc } = ctx;
  const chips = item.attachments.length
    ? h(
        doc,
        "div",
        { class: "chips", attrs: { "aria-label": "Attachments" } },
        ...item.attachments.map((a) => attachmentChip(doc, a)),
      )
    : null;
  const actions = item.canEdit
    ? h(
        doc,
        "div",
        { class: "turn-actions", attrs: { role: "group", "aria-label": "Message actions" } },
        item.canRetry
          ? actionButton(
              doc,
              "user-retry",
              { item: item.id },
              { label: "Run this message again, replacing the reply", icon: "refresh", text: "Retry" },
            )
          : null,
        actionButton(
          doc,
          "user-edit",
          { item: item.id },
          {
            label: "Edit this message and send it again (what came after it is taken back)",
            icon: "edit",
            text: "Edit & resend",
          },
        ),
      )
    : null;
  return [h(doc, "div", { class: "user-text" }, item.text), chips, actions].filter((n): n is HTMLDivElement => !!n);
}

/** The end of a turn that changed files: one button to see and restore the files as they were before it. */
export function renderCheckpoint(item: CheckpointItem, ctx: RenderContext): Node[] {
  return [
    h(
      ctx.doc,
      "div",
      { class: "turn-actions" },
      actionButton(
        ctx.doc,
        "checkpoint-restore",
        { item: item.id },
        { label: "Restore files to before this turn", icon: "discard", text: "Restore files to before this turn" },
      ),
    ),
  ];
}

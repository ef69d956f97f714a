import type { ReviewState, ReviewStatus } from "../protocol.js";
import { actionButton, h, icon } from "./dom.js";

const DECIDED: Record<Exclude<ReviewStatus, "pending">, { readonly icon: string; readonly text: string }> = {
  accepted: { icon: "check", text: "Accepted" },
  rejected: { icon: "close", text: "Rejected" },
  partial: { icon: "check", text: "Partly accepted" },
  superseded: { icon: "discard", text: "Superseded by a later edit" },
};

/** Accept / Reject / Open diff while the edit waits for review; afterwards, what the user decided. */
export function renderReviewBar(doc: Document, review: ReviewState): HTMLElement {
  if (review.status === "pending") {
    return h(
      doc,
      "div",
      { class: "review-bar", attrs: { role: "group", "aria-label": "Review this edit" } },
      actionButton(
        doc,
        "review-decide",
        { proposal: review.proposalId, accept: "true" },
        { label: "Accept edit", icon: "check", text: "Accept", class: "button primary" },
      ),
      actionButton(
        doc,
        "review-decide",
        { proposal: review.proposalId, accept: "false" },
        { label: "Reject edit", icon: "close", text: "Reject", class: "button secondary" },
      ),
      actionButton(
        doc,
        "review-open-diff",
        { proposal: review.proposalId },
        { label: "Open diff in the editor", icon: "git-compare", text: "Open diff", class: "button secondary" },
      ),
    );
  }
  const decided = DECIDED[review.status];
  return h(
    doc,
    "div",
    { class: `review-bar review-${review.status}`, attrs: { role: "status" } },
    icon(doc, decided.icon),
    decided.text,
  );
}

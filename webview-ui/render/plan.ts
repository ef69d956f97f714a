import type { PlanEntry, PlanItem } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { h, icon } from "./dom.js";

const ENTRY: Record<PlanEntry["status"], { readonly icon: string; readonly text: string }> = {
  pending: { icon: "circle-large-outline", text: "to do" },
  in_progress: { icon: "arrow-right", text: "in progress" },
  completed: { icon: "pass-filled", text: "done" },
};

/** The agent's plan as a checklist; the host replaces the item as entries progress, so it stays live. */
export function renderPlan(item: PlanItem, ctx: RenderContext): Node[] {
  const { doc } = ctx;
  const done = item.entries.filter((entry) => entry.status === "completed").length;
  const header = h(
    doc,
    "div",
    { class: "card-header" },
    icon(doc, "checklist"),
    h(doc, "span", { class: "card-title" }, "Plan"),
    h(doc, "span", { class: "plan-progress" }, `${done}/${item.entries.length}`),
  );
  const list = h(
    doc,
    "ul",
    { class: "plan-entries", attrs: { "aria-label": `Plan, ${done} of ${item.entries.length} done` } },
    ...item.entries.map((entry) =>
      h(
        doc,
        "li",
        { class: `plan-entry plan-${entry.status}` },
        icon(doc, ENTRY[entry.status].icon),
        h(doc, "span", { class: "plan-content" }, entry.content),
        h(doc, "span", { class: "visually-hidden" }, `, ${ENTRY[entry.status].text}`),
        entry.priority === "high"
          ? h(doc, "span", { class: "plan-priority", attrs: { "aria-label": ", high priority" } }, "high")
          : null,
      ),
    ),
  );
  return [header, list];
}

import type { PermissionItem, PermissionOption } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { renderDiff } from "./diff.js";
import { actionButton, h, icon } from "./dom.js";
import { TOOL_ICON } from "./tool.js";

const OPTION_ICON: Record<PermissionOption["kind"], string> = {
  allow_once: "check",
  allow_always: "check-all",
  reject_once: "close",
  reject_always: "circle-slash",
};

/** The agent asks before it acts: its own options as buttons; once answered, the answer instead of the buttons. */
export function renderPermission(item: PermissionItem, ctx: RenderContext): Node[] {
  const { doc } = ctx;
  const header = h(
    doc,
    "div",
    { class: "card-header" },
    icon(doc, "shield"),
    icon(doc, TOOL_ICON[item.toolKind]),
    h(doc, "span", { class: "card-title" }, item.title),
  );
  const detail = item.detail ? h(doc, "pre", { class: "permission-detail" }, item.detail) : null;
  const diffs = item.diffs.map((diff, i) => renderDiff(diff, `${item.id}:diff:${i}`, ctx));
  return [
    header,
    detail,
    ...diffs,
    item.answer === undefined ? renderOptions(item, doc) : renderAnswer(item, doc),
  ].filter((node): node is HTMLElement => node !== null);
}

function renderOptions(item: PermissionItem, doc: Document): HTMLElement {
  return h(
    doc,
    "div",
    { class: "permission-options", attrs: { role: "group", "aria-label": `Answer: ${item.title}` } },
    ...item.options.map((option, i) =>
      actionButton(
        doc,
        "permission-answer",
        { item: item.id, option: option.optionId },
        {
          label: option.name,
          icon: OPTION_ICON[option.kind],
          text: option.name,
          class: `button ${i === 0 ? "primary" : "secondary"} option-${option.kind}`,
        },
      ),
    ),
  );
}

function renderAnswer(item: PermissionItem, doc: Document): HTMLElement {
  const chosen = item.options.find((option) => option.optionId === item.answer);
  const text = chosen ? `Answered: ${chosen.name}` : "Cancelled";
  const allowed = chosen?.kind.startsWith("allow") ?? false;
  return h(
    doc,
    "div",
    { class: `permission-answer ${allowed ? "allowed" : "refused"}`, attrs: { role: "status" } },
    icon(doc, allowed ? "check" : "circle-slash"),
    text,
  );
}

import type { SetupItem } from "../protocol.js";
import type { RenderContext } from "./context.js";
import { actionButton, h } from "./dom.js";

/**
 * No model yet: what the server said is missing, the ways to set one up (here: a few questions and one test call;
 * in a terminal: the server's own setup; or a key in the keychain), and the last attempt's verdict.
 */
export function renderSetup(item: SetupItem, ctx: RenderContext): Node[] {
  const { doc } = ctx;
  const button = (how: string, text: string, label: string, icon: string) =>
    actionButton(doc, "setup-start", { item: item.id, how }, { label, icon, text });
  return [
    h(doc, "div", { class: "setup-title" }, "Hermes needs a model"),
    h(doc, "div", { class: "setup-problem" }, item.problem),
    item.verdict
      ? h(doc, "div", { class: `setup-verdict ${item.ok ? "ok" : "failed"}`, attrs: { role: "status" } }, item.verdict)
      : null,
    item.ok
      ? null
      : h(
          doc,
          "div",
          { class: "turn-actions", attrs: { role: "group", "aria-label": "Set up a model" } },
          button("here", "Set up here", "Choose a provider, a model and a key, then test them", "settings-gear"),
          button("terminal", "Set up in terminal", "Run Hermes' own setup in a terminal", "terminal"),
          button("key", "Set API key", "Store an API key in the system keychain", "key"),
        ),
  ].filter((n): n is HTMLDivElement => !!n);
}

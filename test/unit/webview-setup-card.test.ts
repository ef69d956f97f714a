import { strict as assert } from "node:assert";
import type { HostBridge } from "../../webview-ui/bridge.js";
import { ItemStore } from "../../webview-ui/item-store.js";
import type { ChatItem, HostRequestMethod } from "../../webview-ui/protocol.js";
import { type RenderContext, SectionMemory } from "../../webview-ui/render/context.js";
import { createItemView } from "../../webview-ui/render/item-view.js";
import { createSanitizer } from "../../webview-ui/sanitize.js";
import { initialState } from "../../webview-ui/state.js";
import { domWindow } from "../helpers/dom-window.js";
import { mountTranscript } from "../helpers/webview-transcript.js";

const window = domWindow();
const doc = window.document;
const ctx = (): RenderContext => ({ doc, sanitizer: createSanitizer(window), sections: new SectionMemory() });

const card = (fields: Partial<Extract<ChatItem, { kind: "setup" }>> = {}): ChatItem => ({
  kind: "setup",
  id: "s1",
  problem: "No model configured: set model.default in /home/me/.hermes/config.yaml <b>now</b>",
  ...fields,
});

describe("webview setup card (no model yet)", () => {
  it("says what is missing, as text, and offers the three ways to set a model up", () => {
    const element = createItemView(card(), ctx()).element;
    assert.match(element.querySelector(".setup-problem")?.textContent ?? "", /^No model configured: .*<b>now<\/b>$/);
    assert.equal(element.querySelector(".setup-problem b"), null, "the server's text is never markup");
    assert.deepEqual(
      [...element.querySelectorAll<HTMLButtonElement>("button[data-action=setup-start]")].map((b) => b.dataset.how),
      ["here", "terminal", "key"],
    );
  });

  it("shows the verdict, and no more buttons once the model works", () => {
    const failed = createItemView(card({ verdict: "Failed: the API key is wrong.", ok: false }), ctx()).element;
    assert.equal(failed.querySelector(".setup-verdict.failed")?.textContent, "Failed: the API key is wrong.");
    assert.equal(failed.querySelectorAll("button").length, 3, "try again");
    const works = createItemView(card({ verdict: 'Works: m answered "OK".', ok: true }), ctx()).element;
    assert.equal(works.querySelector(".setup-verdict.ok")?.textContent, 'Works: m answered "OK".');
    assert.equal(works.querySelectorAll("button").length, 0);
  });

  it("asks the host to start the setup the button names", () => {
    const requests: Array<[HostRequestMethod, unknown]> = [];
    const bridge = {
      request: (method: HostRequestMethod, params: unknown) => {
        requests.push([method, params]);
        return Promise.resolve();
      },
    } as unknown as HostBridge;
    const transcript = mountTranscript(ctx(), bridge);
    transcript.render({ ...initialState, items: ItemStore.from([{ item: card(), version: 1 }]) });
    doc
      .querySelector<HTMLButtonElement>("button[data-how=terminal]")!
      .dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
    assert.deepEqual(requests, [["setup/start", { itemId: "s1", how: "terminal" }]]);
  });
});

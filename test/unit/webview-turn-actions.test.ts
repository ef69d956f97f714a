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
const actions = (element: Element) =>
  [...element.querySelectorAll<HTMLButtonElement>("button[data-action]")].map(
    (b) => `${b.dataset.action} ${b.dataset.item} ${b.textContent?.trim()}`,
  );

const user = (fields: Partial<Extract<ChatItem, { kind: "user" }>> = {}): ChatItem => ({
  kind: "user",
  id: "u1",
  text: "make it <b>faster</b>",
  attachments: [],
  ...fields,
});

describe("webview turn actions (Retry, Edit & resend, Restore files)", () => {
  it("offers Retry and Edit & resend on the latest message, Edit & resend on earlier ones, nothing on commands", () => {
    assert.deepEqual(actions(createItemView(user({ canEdit: true, canRetry: true }), ctx()).element), [
      "user-retry u1 Retry",
      "user-edit u1 Edit & resend",
    ]);
    assert.deepEqual(actions(createItemView(user({ canEdit: true }), ctx()).element), ["user-edit u1 Edit & resend"]);
    const command = createItemView(user({ text: "/usage" }), ctx()).element;
    assert.deepEqual(actions(command), []);
    assert.equal(command.querySelector(".turn-actions"), null);
  });

  it("keeps the message text as text", () => {
    const { element } = createItemView(user({ canEdit: true }), ctx());
    assert.equal(element.querySelector(".user-text")?.textContent, "make it <b>faster</b>");
    assert.equal(element.querySelector("b"), null);
  });

  it("draws a turn's checkpoint as one restore button", () => {
    const { element } = createItemView({ kind: "checkpoint", id: "c1", checkpoint: "abc", turn: 2 }, ctx());
    assert.equal(element.getAttribute("aria-label"), "Checkpoint before turn 2");
    assert.deepEqual(actions(element), ["checkpoint-restore c1 Restore files to before this turn"]);
  });

  it("sends what the buttons mean to the host, and hands an edit to the composer", async () => {
    const requests: Array<[HostRequestMethod, unknown]> = [];
    let release = () => {};
    const bridge = {
      request: (method: HostRequestMethod, params: unknown) => {
        requests.push([method, params]);
        return new Promise<void>((resolve) => (release = resolve));
      },
    } as unknown as HostBridge;
    const edited: string[] = [];
    const transcript = mountTranscript(ctx(), bridge, { editMessage: (id) => edited.push(id) });
    const items: ChatItem[] = [
      user({ canEdit: true, canRetry: true }),
      { kind: "checkpoint", id: "c1", checkpoint: "abc", turn: 1 },
    ];
    transcript.render({ ...initialState, items: ItemStore.from(items.map((item) => ({ item, version: 1 }))) });
    const click = (action: string) =>
      doc
        .querySelector<HTMLButtonElement>(`button[data-action=${action}]`)!
        .dispatchEvent(new window.MouseEvent("click", { bubbles: true }));

    click("user-edit");
    assert.deepEqual(edited, ["u1"]);
    click("user-retry");
    assert.deepEqual(requests.at(-1), ["chat/retry", {}]);
    click("checkpoint-restore");
    assert.deepEqual(requests.at(-1), ["checkpoint/restore", { itemId: "c1" }]);
    const restore = doc.querySelector<HTMLButtonElement>("button[data-action=checkpoint-restore]")!;
    assert.equal(restore.disabled, true, "one restore at a time");
    release();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(restore.disabled, false, "back once the host is done (restored or declined)");
  });
});

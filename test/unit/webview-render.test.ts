import { strict as assert } from "node:assert";
import { MarkdownView } from "../../webview-ui/markdown.js";
import type { ChatItem, PermissionItem, ToolItem } from "../../webview-ui/protocol.js";
import { type RenderContext, SectionMemory } from "../../webview-ui/render/context.js";
import { createItemView } from "../../webview-ui/render/item-view.js";
import { createSanitizer } from "../../webview-ui/sanitize.js";
import { domWindow } from "../helpers/dom-window.js";

const window = domWindow();
const doc = window.document;
const ctx = (): RenderContext => ({ doc, sanitizer: createSanitizer(window), sections: new SectionMemory() });
const text = (element: Element | null | undefined) => element?.textContent?.replace(/\s+/g, " ").trim();
const buttons = (element: Element) => [...element.querySelectorAll("button")].map((b) => text(b));

const editTool: ToolItem = {
  id: "t1",
  kind: "tool",
  toolKind: "edit",
  title: "Edit src/a.ts <img src=x onerror=alert(1)>",
  status: "completed",
  locations: [{ path: "/w/src/a.ts", label: "src/a.ts", line: 3 }],
  output: "line 1\nline 2\n",
  diffs: [
    {
      path: "/w/src/a.ts",
      label: "src/a.ts",
      change: "modify",
      added: 2,
      removed: 1,
      hunks: [
        {
          header: "@@ -3,2 +3,3 @@",
          lines: [
            { type: "context", text: "a" },
            { type: "remove", text: "b" },
            { type: "add", text: "B" },
            { type: "add", text: "C" },
          ],
        },
      ],
    },
  ],
  review: { proposalId: "p1", status: "pending" },
};

describe("webview item renderers", () => {
  it("draws a tool call as a card: kind icon, title as text, status, locations, diff with counts, review buttons", () => {
    const { element } = createItemView(editTool, ctx());
    assert.equal(element.getAttribute("aria-label"), "Tool call: Edit src/a.ts <img src=x onerror=alert(1)>");
    assert.ok(element.querySelector(".codicon-edit"));
    assert.equal(text(element.querySelector(".card-title")), "Edit src/a.ts <img src=x onerror=alert(1)>");
    assert.equal(element.querySelector("img"), null, "a title is text, never markup");
    assert.equal(text(element.querySelector(".badge")), "Done");
    const location = element.querySelector<HTMLButtonElement>(".locations button")!;
    assert.deepEqual(
      [location.dataset.action, location.dataset.path, location.dataset.line, text(location)],
      ["open-location", "/w/src/a.ts", "3", "src/a.ts:3"],
    );
    assert.equal(text(element.querySelector(".diff-counts")), "+2 −1");
    assert.deepEqual(
      [...element.querySelectorAll(".diff-line")].map((line) => text(line)),
      ["a", "−b", "+B", "+C"],
    );
    assert.deepEqual(buttons(element.querySelector(".review-bar")!), ["Accept", "Reject", "Open diff"]);
    const accept = element.querySelector<HTMLButtonElement>(".review-bar button")!;
    assert.deepEqual(
      [accept.dataset.action, accept.dataset.proposal, accept.dataset.accept],
      ["review-decide", "p1", "true"],
    );
    const output = element.querySelector("details.output") as HTMLDetailsElement;
    assert.equal(output.open, false, "output starts collapsed");
    assert.equal(text(output.querySelector("summary")), "Output · 2 lines");
  });

  it("shows the pictures a tool showed (a screenshot) as images in its card", () => {
    const png = "iVBORw0KGgo=";
    const { element } = createItemView(
      { ...editTool, toolKind: "fetch", images: [{ mimeType: "image/png", data: png }] },
      ctx(),
    );
    const images = [...element.querySelectorAll("img.tool-image")];
    assert.deepEqual(
      images.map((img) => img.getAttribute("src")),
      [`data:image/png;base64,${png}`],
    );
    assert.match(String(images[0]?.getAttribute("alt")), /^Image 1 from Edit src\/a\.ts/);
    assert.equal(createItemView(editTool, ctx()).element.querySelector("img"), null, "no pictures, no images");
  });

  it("shows the decision instead of the buttons once the edit was reviewed", () => {
    const view = createItemView(editTool, ctx());
    view.update({ ...editTool, review: { proposalId: "p1", status: "rejected" } });
    assert.equal(text(view.element.querySelector(".review-bar")), "Rejected");
    assert.equal(view.element.querySelector("[data-action=review-decide]"), null);
  });

  it("keeps a section the user opened open when the card is re-rendered by a streamed delta", () => {
    const context = ctx();
    const view = createItemView({ ...editTool, status: "in_progress" }, context);
    context.sections.remember("t1:output", true);
    view.update({ ...editTool, status: "in_progress", output: "line 1\nline 2\nline 3\n" });
    assert.equal((view.element.querySelector("details.output") as HTMLDetailsElement).open, true);
    assert.equal(text(view.element.querySelector(".badge")), "Running");
  });

  it("offers the agent's own permission options and shows the answer once given", () => {
    const permission: PermissionItem = {
      id: "perm1",
      kind: "permission",
      title: "Run rm -rf build",
      toolKind: "execute",
      detail: "rm -rf build",
      diffs: [],
      options: [
        { optionId: "yes", name: "Allow once", kind: "allow_once" },
        { optionId: "always", name: "Always allow rm", kind: "allow_always" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
    };
    const view = createItemView(permission, ctx());
    assert.deepEqual(buttons(view.element), ["Allow once", "Always allow rm", "Reject"]);
    const first = view.element.querySelector<HTMLButtonElement>("[data-action=permission-answer]")!;
    assert.deepEqual([first.dataset.item, first.dataset.option], ["perm1", "yes"]);
    assert.equal(text(view.element.querySelector(".permission-detail")), "rm -rf build");
    view.update({ ...permission, answer: "no" });
    assert.deepEqual(buttons(view.element), []);
    assert.equal(text(view.element.querySelector(".permission-answer")), "Answered: Reject");
    view.update({ ...permission, answer: "cancelled" });
    assert.equal(text(view.element.querySelector(".permission-answer")), "Cancelled");
  });

  it("draws the plan as a checklist with progress", () => {
    const { element } = createItemView(
      {
        id: "plan",
        kind: "plan",
        entries: [
          { content: "Reproduce", status: "completed", priority: "high" },
          { content: "Fix", status: "in_progress", priority: "high" },
          { content: "Test", status: "pending", priority: "low" },
        ],
      },
      ctx(),
    );
    assert.equal(text(element.querySelector(".plan-progress")), "1/3");
    assert.deepEqual(
      [...element.querySelectorAll(".plan-entry")].map((li) => li.className),
      ["plan-entry plan-completed", "plan-entry plan-in_progress", "plan-entry plan-pending"],
    );
    assert.equal(text(element.querySelector(".plan-entry .visually-hidden")), ", done");
    assert.equal(element.querySelector(".plan-entry .plan-priority")?.getAttribute("aria-label"), ", high priority");
  });

  it("collapses thoughts, styles notices by level, and shows a user's attachments as chips", () => {
    const thought = createItemView({ id: "th", kind: "thought", text: "thinking hard" }, ctx()).element;
    assert.equal((thought.querySelector("details") as HTMLDetailsElement).open, false);
    assert.equal(text(thought.querySelector(".thought-text")), "thinking hard");
    const notice = createItemView(
      { id: "n", kind: "notice", level: "error", text: "Provider said 401" },
      ctx(),
    ).element;
    assert.ok(notice.classList.contains("level-error"));
    assert.equal(notice.getAttribute("aria-label"), "Error");
    const user = createItemView(
      {
        id: "u",
        kind: "user",
        text: "look <b>here</b>",
        attachments: [{ id: "a", kind: "selection", label: "src/a.ts:3-9" }],
      },
      ctx(),
    ).element;
    assert.equal(text(user.querySelector(".user-text")), "look <b>here</b>");
    assert.equal(text(user.querySelector(".chip")), "src/a.ts:3-9");
  });

  it("renders agent Markdown sanitised, links without targets", () => {
    const item: ChatItem = {
      id: "a",
      kind: "agent",
      markdown: "Hi [x](https://example.com) <img src=x onerror=alert(1)> [y](javascript:alert(1))",
    };
    const { element } = createItemView(item, ctx());
    assert.equal(element.querySelector("img"), null);
    assert.deepEqual(
      [...element.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
      ["https://example.com"],
    );
  });
});

describe("webview streaming Markdown", () => {
  it("re-renders only the block still growing; finished blocks keep their DOM", () => {
    const view = new MarkdownView(doc, createSanitizer(window));
    view.update("First paragraph.\n\nSecond");
    const first = view.element.children[0];
    view.update("First paragraph.\n\nSecond paragraph, longer now.");
    assert.equal(view.element.children[0], first, "the finished block was not rebuilt");
    assert.equal(view.element.children.length, 2);
    assert.equal(text(view.element.children[1]), "Second paragraph, longer now.");
  });

  it("shows an unclosed fence as a code block to the end, and closes it cleanly when the fence arrives", () => {
    const view = new MarkdownView(doc, createSanitizer(window));
    view.update("Look:\n\n```python\ndef f():\n    return 1");
    assert.equal(text(view.element.querySelector("pre code")), "def f(): return 1");
    view.update("Look:\n\n```python\ndef f():\n    return 1\n```\n\nDone.");
    assert.equal(view.element.querySelectorAll("pre").length, 1);
    assert.equal(text(view.element.lastElementChild), "Done.");
  });

  it("drops blocks that disappeared (a replaced message)", () => {
    const view = new MarkdownView(doc, createSanitizer(window));
    view.update("a\n\nb\n\nc");
    view.update("a");
    assert.equal(view.element.children.length, 1);
  });
});

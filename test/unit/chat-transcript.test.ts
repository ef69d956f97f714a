import * as assert from "node:assert/strict";
import { relative } from "node:path";
import { ChatTranscript } from "../../extension/chat/chat-transcript.js";
import { pickersOf } from "../../extension/chat/config-pickers.js";
import type { HostNotificationMethod } from "../../webview-ui/protocol.js";

const ROOT = "/work/project";

function transcript(terminals: Record<string, string> = {}) {
  const sent: Array<{ method: HostNotificationMethod; params: unknown }> = [];
  const t = new ChatTranscript(
    (method, params) => sent.push({ method, params }),
    (path) => relative(ROOT, path),
    (id) => terminals[id],
  );
  return { t, sent };
}

describe("chat transcript (what the chat view is sent)", () => {
  it("streams the agent's reply as one item and sends only the deltas", () => {
    const { t, sent } = transcript();
    t.addUser("hi", []);
    for (const text of ["Hel", "lo ", "**world**"])
      t.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    const agents = t.snapshot().items.filter((i) => i.kind === "agent");
    assert.deepEqual(
      agents.map((a) => a.kind === "agent" && a.markdown),
      ["Hello **world**"],
    );
    assert.deepEqual(
      sent.filter((m) => m.method === "chat/append").map((m) => (m.params as { text: string }).text),
      ["lo ", "**world**"],
    );
    assert.equal(
      sent.filter((m) => m.method === "chat/item").length,
      2,
      "the user item and the agent item's first piece",
    );
  });

  it("shows the server's error and notice lines as notices, not as reply text", () => {
    const { t } = transcript();
    t.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "partial answer" } });
    t.apply({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "⚠️ The provider answered 429" },
      _meta: { hermes: { error: true } },
    });
    t.apply({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "⚠️ Truncated: AGENTS.md\n\n" },
      _meta: { hermes: { notice: true } },
    });
    const items = t.snapshot().items;
    assert.deepEqual(
      items.map((i) => i.kind),
      ["agent", "notice", "notice"],
    );
    assert.deepEqual(
      items.slice(1).map((i) => i.kind === "notice" && [i.level, i.text]),
      [
        ["error", "The provider answered 429"],
        ["warning", "Truncated: AGENTS.md"],
      ],
    );
    assert.equal(items[0]?.kind === "agent" && items[0].markdown, "partial answer");
  });

  it("keeps replayed user messages apart unless their chunks share a message id", () => {
    const { t } = transcript();
    t.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "first (cancelled)" } });
    t.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "second" } });
    t.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "third, " }, messageId: "m3" });
    t.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "in two chunks" }, messageId: "m3" });
    assert.deepEqual(
      t.snapshot().items.map((i) => i.kind === "user" && i.text),
      ["first (cancelled)", "second", "third, in two chunks"],
    );
  });

  it("starts a new reply item after a tool call, and keeps thoughts apart", () => {
    const { t } = transcript();
    t.apply({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "thinking" } });
    t.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Let me look." } });
    t.apply({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Read a.ts", kind: "read", status: "pending" });
    t.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." } });
    assert.deepEqual(
      t.snapshot().items.map((i) => i.kind),
      ["thought", "agent", "tool", "agent"],
    );
  });

  it("shows a tool card with its kind, locations, output and diff counts, updated in place", () => {
    const { t } = transcript();
    t.apply({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "Edit src/a.ts",
      kind: "edit",
      status: "pending",
      locations: [{ path: `${ROOT}/src/a.ts`, line: 3 }],
      content: [{ type: "diff", path: `${ROOT}/src/a.ts`, oldText: "a\nb\nc\n", newText: "a\nB\nc\nd\n" }],
    });
    t.apply({
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "Edited src/a.ts" } }],
    });
    const [card] = t.snapshot().items;
    assert.equal(card?.kind, "tool");
    if (card?.kind !== "tool") return;
    assert.equal(card.status, "completed");
    assert.equal(card.toolKind, "edit");
    assert.deepEqual(card.locations, [{ path: `${ROOT}/src/a.ts`, label: "src/a.ts", line: 3 }]);
    assert.equal(card.output, "Edited src/a.ts");
    assert.equal(t.length, 1);
  });

  it("keeps a tool's pictures of known image types for its card, and no other content as a picture", () => {
    const { t } = transcript();
    t.apply({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "browser_vision",
      kind: "read",
      status: "in_progress",
    });
    t.apply({
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      content: [
        { type: "content", content: { type: "text", text: "A login form" } },
        { type: "content", content: { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" } },
        { type: "content", content: { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" } },
        { type: "content", content: { type: "image", mimeType: "image/png", data: "not base64!" } },
      ],
    });
    const card = t.snapshot().items[0];
    assert.equal(card?.kind, "tool");
    if (card?.kind !== "tool") return;
    assert.deepEqual(card.images, [{ mimeType: "image/png", data: "iVBORw0KGgo=" }]);
    assert.equal(card.output, "A login form\n[image]\n[image]", "the pictures it cannot show stay placeholders");
  });

  it("shows an editor terminal's output on its tool card (ACP sends the terminal, not a copy of its text)", () => {
    const terminals: Record<string, string> = { term_1: "building…\n" };
    const { t } = transcript(terminals);
    t.apply({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "Run make",
      kind: "execute",
      status: "in_progress",
    });
    t.apply({
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      content: [{ type: "terminal", terminalId: "term_1" }],
    });
    const card = () => t.snapshot().items[0];
    assert.equal((card() as { output: string }).output, "building…");
    terminals.term_1 = "building…\ndone\n";
    t.apply({
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      content: [
        { type: "terminal", terminalId: "term_1" },
        { type: "content", content: { type: "text", text: "exit code 0" } },
      ],
    });
    assert.equal((card() as { output: string }).output, "building…\ndone\nexit code 0");
  });

  it("computes the diff of an edit with +/- counts and hunks", () => {
    const { t } = transcript();
    t.apply({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "Write b.ts",
      kind: "edit",
      content: [{ type: "diff", path: `${ROOT}/b.ts`, oldText: null, newText: "x\ny\n" }],
    });
    const [card] = t.snapshot().items;
    if (card?.kind !== "tool") return assert.fail("no tool card");
    const [diff] = card.diffs;
    assert.equal(diff?.change, "create");
    assert.equal(diff?.added, 2);
    assert.equal(diff?.removed, 0);
    assert.deepEqual(diff?.hunks[0]?.lines, [
      { type: "add", text: "x" },
      { type: "add", text: "y" },
    ]);
  });

  it("keeps one live plan per turn", () => {
    const { t } = transcript();
    t.addUser("plan it", []);
    t.apply({ sessionUpdate: "plan", entries: [{ content: "step 1", status: "in_progress", priority: "high" }] });
    t.apply({ sessionUpdate: "plan", entries: [{ content: "step 1", status: "completed", priority: "high" }] });
    assert.equal(t.snapshot().items.filter((i) => i.kind === "plan").length, 1);
    t.addUser("again", []);
    t.apply({ sessionUpdate: "plan", entries: [{ content: "step 2", status: "pending", priority: "low" }] });
    assert.equal(t.snapshot().items.filter((i) => i.kind === "plan").length, 2);
  });

  it("turns a permission request into a card with the agent's options, answered once", () => {
    const { t } = transcript();
    const id = t.addPermission({
      sessionId: "s",
      toolCall: {
        toolCallId: "c9",
        title: "Run rm -rf build",
        kind: "execute",
        content: [{ type: "content", content: { type: "text", text: "$ rm -rf build" } }],
      },
      options: [
        { optionId: "once", name: "Allow once", kind: "allow_once" },
        { optionId: "deny", name: "Deny", kind: "reject_once" },
      ],
    });
    t.answerPermission(id, "deny");
    t.answerPermission(id, "once");
    const card = t.item(id);
    if (card?.kind !== "permission") return assert.fail("no permission card");
    assert.equal(card.detail, "$ rm -rf build");
    assert.deepEqual(
      card.options.map((o) => o.name),
      ["Allow once", "Deny"],
    );
    assert.equal(card.answer, "deny");
  });

  it("puts an edit under review on the tool card that made it, and a stray one on a card of its own", () => {
    const { t } = transcript();
    t.apply({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "Write a.txt",
      kind: "edit",
      status: "in_progress",
      locations: [{ path: `${ROOT}/a.txt` }],
    });
    t.addReview("p1", `${ROOT}/a.txt`, "old\n", "new\n");
    t.addReview("p2", `${ROOT}/other.txt`, null, "hello\n");
    const items = t.snapshot().items;
    assert.deepEqual(
      items.map((i) => i.kind),
      ["tool", "review"],
    );
    const card = items[0];
    if (card?.kind !== "tool") return assert.fail();
    assert.deepEqual(card.review, { proposalId: "p1", status: "pending" });
    assert.equal(card.diffs[0]?.added, 1);
    t.setReviewStatus("p1", "accepted");
    t.setReviewStatus("p2", "rejected");
    const after = t.snapshot().items;
    assert.equal(after[0]?.kind === "tool" && after[0].review?.status, "accepted");
    assert.equal(after[1]?.kind === "review" && after[1].review.status, "rejected");
  });

  it("re-shows a proposal whose file changed on the same card", () => {
    const { t } = transcript();
    t.addReview("p1", `${ROOT}/a.txt`, "one\n", "two\n");
    t.addReview("p1", `${ROOT}/a.txt`, "user edit\n", "two\n");
    const items = t.snapshot().items;
    assert.equal(items.length, 1);
    assert.equal(items[0]?.kind === "review" && items[0].diff.hunks[0]?.lines[0]?.text, "user edit");
  });

  it("follows commands, pickers, usage and the title; reset empties the conversation", () => {
    const { t, sent } = transcript();
    t.apply({
      sessionUpdate: "available_commands_update",
      availableCommands: [{ name: "compress", description: "Compress", input: { hint: "focus" } }],
    });
    t.apply({
      sessionUpdate: "config_option_update",
      configOptions: [
        {
          id: "mode",
          name: "Mode",
          type: "select",
          currentValue: "default",
          options: [
            { value: "default", name: "Default" },
            { value: "yolo", name: "YOLO" },
          ],
        },
      ],
    });
    t.apply({ sessionUpdate: "current_mode_update", currentModeId: "yolo" });
    t.apply({ sessionUpdate: "usage_update", used: 1200, size: 128000 });
    t.apply({ sessionUpdate: "session_info_update", title: "Fix the build" });
    t.addUser("x", []);
    const snap = t.snapshot();
    assert.deepEqual(snap.commands, [{ name: "compress", description: "Compress", hint: "focus" }]);
    assert.equal(snap.pickers[0]?.currentValue, "yolo");
    assert.deepEqual(snap.usage, { used: 1200, size: 128000 });
    assert.equal(snap.title, "Fix the build");
    t.reset();
    assert.equal(t.snapshot().items.length, 0);
    assert.equal(sent.at(-1)?.method, "chat/snapshot");
  });

  it("flattens grouped select options into picker choices", () => {
    const pickers = pickersOf([
      {
        id: "model",
        name: "Model",
        type: "select",
        currentValue: "a",
        options: [
          {
            group: "g",
            name: "Group",
            options: [
              { value: "a", name: "A" },
              { value: "b", name: "B", description: "second" },
            ],
          },
        ],
      },
    ]);
    assert.deepEqual(pickers[0]?.choices, [
      { value: "a", name: "A" },
      { value: "b", name: "B", description: "second" },
    ]);
  });
});

import * as assert from "node:assert/strict";
import { ChatTranscript } from "../../extension/chat/chat-transcript.js";
import type { ChatItem, HostNotificationMethod } from "../../webview-ui/protocol.js";

function transcript() {
  const sent: Array<{ method: HostNotificationMethod; params: unknown }> = [];
  const t = new ChatTranscript(
    (method, params) => sent.push({ method, params }),
    (path) => path,
  );
  return { t, sent };
}

const reply = (t: ChatTranscript, text: string) =>
  t.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

/** What the user sees of each item: its kind, its text, and the actions it offers. */
function shown(items: readonly ChatItem[]): string[] {
  return items.map((i) => {
    if (i.kind === "user") return `user ${i.text}${i.canEdit ? " [edit]" : ""}${i.canRetry ? " [retry]" : ""}`;
    if (i.kind === "agent") return `agent ${i.markdown}`;
    if (i.kind === "checkpoint") return `checkpoint ${i.checkpoint} turn ${i.turn}`;
    return i.kind;
  });
}

describe("chat transcript: retry, edit & resend, checkpoints", () => {
  it("offers Edit & resend on messages of the conversation and Retry on the latest only", () => {
    const { t } = transcript();
    t.addUser("first", []);
    reply(t, "one");
    t.addUser("/usage", []);
    reply(t, "tokens");
    t.addUser("second", []);
    reply(t, "two");
    assert.deepEqual(shown(t.snapshot().items), [
      "user first [edit]",
      "agent one",
      "user /usage",
      "agent tokens",
      "user second [edit] [retry]",
      "agent two",
    ]);
    assert.equal(t.retryTarget, t.snapshot().items[4]!.id);
  });

  it("treats a message the server echoes (a /queue text, a replayed history) as part of the conversation", () => {
    const { t } = transcript();
    t.addUser("first", []);
    t.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "queued" } });
    assert.deepEqual(shown(t.snapshot().items), ["user first [edit]", "user queued [edit] [retry]"]);
  });

  it("takes Edit & resend and Retry away from messages before /new", () => {
    const { t } = transcript();
    t.addUser("old", []);
    reply(t, "answer");
    t.addUser("/new", []);
    assert.deepEqual(shown(t.snapshot().items), ["user old", "agent answer", "user /new"]);
    assert.equal(t.retryTarget, undefined);
    assert.equal(t.exchangesFrom(t.snapshot().items[0]!.id), undefined);
  });

  it("drops the old reply for a retry, and the message with all after it for a resend", () => {
    const { t, sent } = transcript();
    t.addUser("first", []);
    reply(t, "one");
    t.addCheckpoint("c1", 1);
    t.addUser("second", []);
    reply(t, "two");
    t.addCheckpoint("c2", 2);
    const [first, , , second] = t.snapshot().items;
    assert.equal(t.exchangesFrom(first!.id), 2);

    t.truncate(second!.id, true);
    assert.deepEqual(shown(t.snapshot().items), [
      "user first [edit]",
      "agent one",
      "checkpoint c1 turn 1",
      "user second [edit] [retry]",
    ]);
    assert.equal(sent.at(-1)?.method, "chat/snapshot", "the view redraws what is left");
    reply(t, "two again");
    assert.equal(shown(t.snapshot().items).at(-1), "agent two again", "the new reply is a new item");

    t.truncate(second!.id, false);
    assert.deepEqual(shown(t.snapshot().items), ["user first [edit] [retry]", "agent one", "checkpoint c1 turn 1"]);
    assert.equal(t.retryTarget, first!.id);
  });

  it("counts the user messages shown, for the number of the turn a checkpoint belongs to", () => {
    const { t } = transcript();
    t.addUser("a", []);
    t.addUser("/usage", []);
    t.addUser("b", []);
    assert.equal(t.userMessages, 3);
    t.addCheckpoint("abc", 3);
    assert.deepEqual(shown(t.snapshot().items).at(-1), "checkpoint abc turn 3");
  });

  it("takes Edit & resend and Retry away when the server's conversation is gone", () => {
    const { t } = transcript();
    t.addUser("a", []);
    t.sealUserItems();
    assert.deepEqual(shown(t.snapshot().items), ["user a"]);
    assert.equal(t.retryTarget, undefined);
  });
});

import * as assert from "node:assert/strict";
import { availableCommands } from "../../acp-server/turn/slash-commands.js";
import {
  clearsConversation,
  exchangesFrom,
  isConversationText,
  SERVER_ANSWERED_COMMANDS,
} from "../../extension/chat/turn-history.js";
import type { ChatItem } from "../../webview-ui/protocol.js";

const user = (id: string, text: string, canEdit = isConversationText(text)): ChatItem => ({
  kind: "user",
  id,
  text,
  attachments: [],
  canEdit,
});
const agent = (id: string): ChatItem => ({ kind: "agent", id, markdown: "ok" });

describe("turn history (what /undo counts)", () => {
  it("counts messages and skills as exchanges, not the commands the server answers itself", () => {
    for (const text of ["fix the bug", "/my-skill do it", "/unknown-thing", " /steer go left", "a /usage in text"])
      assert.equal(isConversationText(text), true, text);
    for (const text of ["/usage", "/undo 2", "/retry", "/rollback diff 1", "/NEW", "/queue later", "/title x"])
      assert.equal(isConversationText(text), false, text);
  });

  it("knows every command the server answers itself (a new one must be classified here too)", () => {
    const server = availableCommands().map((c) => c.name);
    // /steer without a running turn becomes an ordinary prompt on the server: an exchange.
    const missing = server.filter((name) => name !== "steer" && !SERVER_ANSWERED_COMMANDS.has(name));
    assert.deepEqual(missing, []);
  });

  it("sees /new and /reset empty the conversation", () => {
    assert.equal(clearsConversation("/new"), true);
    assert.equal(clearsConversation(" /reset "), true);
    assert.equal(clearsConversation("/newer"), false);
    assert.equal(clearsConversation("new"), false);
  });

  it("undoes a message and every exchange after it, skipping commands in between", () => {
    const items = [
      user("u1", "first"),
      agent("a1"),
      user("u2", "second"),
      agent("a2"),
      user("u3", "/usage"),
      agent("a3"),
      user("u4", "third"),
      agent("a4"),
    ];
    assert.equal(exchangesFrom(items, "u4"), 1);
    assert.equal(exchangesFrom(items, "u2"), 2);
    assert.equal(exchangesFrom(items, "u1"), 3);
    assert.equal(exchangesFrom(items, "u3"), undefined, "a command cannot be edited and resent");
    assert.equal(exchangesFrom(items, "a1"), undefined);
    assert.equal(exchangesFrom(items, "gone"), undefined);
    assert.equal(exchangesFrom([user("u0", "before /new", false), ...items], "u0"), undefined);
  });
});

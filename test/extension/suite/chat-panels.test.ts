/** Chats in editor tabs, inside real VS Code: each its own session, running at the same time as the sidebar's. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

describe("chats in editor tabs", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;

  before(async () => {
    ({ api, llm } = await startScriptedHermes());
    await api.chat.newChat();
  });

  after(async () => {
    llm.respondWith(undefined);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  it("opens a chat in a tab that answers on its own session, side by side with the sidebar's", async () => {
    await vscode.commands.executeCommand("hermes.openChatInEditor");
    const tab = api.panels.chats.at(-1)!;
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    await until(() => labels().some((label) => label.startsWith("Hermes Chat")), `a Hermes Chat tab in ${labels()}`);

    // Each request is answered with the words of its own last user message: no reply can go to the wrong chat.
    llm.respondWith((request) => {
      const last = request.body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      return { kind: "text", chunks: [`echo: ${last}`], chunkDelayMs: 50 };
    });
    const [sidebar, inTab] = await Promise.all([api.chat.prompt("from the sidebar"), tab.prompt("from the tab")]);
    assert.equal(sidebar, "end_turn");
    assert.equal(inTab, "end_turn");
    const replies = (items: typeof api.chat.snapshot.items) =>
      items.flatMap((i) => (i.kind === "agent" ? [i.markdown] : []));
    assert.deepEqual(replies(api.chat.snapshot.items), ["echo: from the sidebar"]);
    assert.deepEqual(replies(tab.snapshot.items), ["echo: from the tab"]);
    assert.notEqual(tab.serverPid, undefined);
    assert.notEqual(tab.serverPid, api.chat.serverPid, "its own server and session");
  });
});

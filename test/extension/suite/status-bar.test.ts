/** The status bar item in real VS Code: the model and mode of the chat's session, a spinner while a turn runs. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

describe("Hermes in the status bar", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;

  before(async () => {
    ({ api, llm } = await startScriptedHermes());
    await api.chat.newChat();
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  it("shows the model and the mode, spins while a turn runs, and opens the chat", async () => {
    await api.chat.connect();
    await until(() => api.statusBar.text.includes("scripted-model"), `the model in "${api.statusBar.text}"`);
    assert.match(api.statusBar.text, /^\$\(hubot\) Hermes: scripted-model · Accept edits$/);

    llm.enqueue({ kind: "text", chunks: ["slow ", "reply"], chunkDelayMs: 400 });
    const turn = api.chat.prompt("hello");
    await until(() => api.statusBar.text.startsWith("$(loading~spin)"), "the spinner");
    await turn;
    assert.match(api.statusBar.text, /^\$\(hubot\) /);
    // The click target: VS Code's command that reveals and focuses the chat view.
    assert.ok((await vscode.commands.getCommands(true)).includes("hermes.chat.focus"));
  });
});

/** "Add to Hermes Chat" from a terminal's context menu, inside real VS Code: the selection joins the next prompt. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

describe("a terminal's selection in the chat", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let terminal: vscode.Terminal;

  before(async () => {
    ({ api, llm } = await startScriptedHermes());
    await api.chat.newChat();
  });

  after(async () => {
    terminal?.dispose();
    await llm.close();
  });

  it("attaches what is selected in the active terminal and sends it with the prompt", async () => {
    terminal = vscode.window.createTerminal({ name: "build" });
    terminal.show();
    terminal.sendText("echo build-failed-at-step-42");
    await new Promise((r) => setTimeout(r, 1500));
    await vscode.commands.executeCommand("workbench.action.terminal.selectAll");
    await vscode.commands.executeCommand("hermes.addTerminalSelection");
    await until(() => api.chat.snapshot.attachments.some((a) => a.label === "terminal: build"), "the chip");

    llm.enqueue({ kind: "text", chunks: ["Step 42 failed."] });
    await api.chat.prompt("why did it fail?");
    const sent =
      llm.requests
        .at(-1)!
        .body.messages.filter((m) => m.role === "user")
        .at(-1)!.content ?? "";
    assert.match(sent, /build-failed-at-step-42/);
  });
});

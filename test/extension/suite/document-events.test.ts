/**
 * The files the user opens in VS Code reach the agent (ACP document events) and bring their folder's AGENTS.md
 * into the next turn: the real extension, the real hermes-acp and the scripted LLM endpoint, inside code-server.
 */
import * as assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { writeTree } from "../../helpers/temp-dirs.js";
import { startScriptedHermes } from "../helpers/scripted-hermes.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("document events from VS Code", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let workspace: string;

  before(async () => {
    ({ api, llm, workspace } = await startScriptedHermes());
    writeTree(workspace, {
      "docs/AGENTS.md": "docs rules from the extension test",
      "docs/guide/intro.md": "# Intro\n\nsecond line\n",
    });
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(join(workspace, "docs"), { recursive: true, force: true });
    await llm.close();
  });

  const lastUserMessage = () =>
    String(
      llm.requests
        .at(-1)!
        .body.messages.filter((m) => m.role === "user")
        .at(-1)!.content,
    );

  it("sends didOpen and didFocus when an editor opens, and the folder's AGENTS.md reaches the next turn once", async () => {
    llm.enqueue(
      { kind: "text", chunks: ["started"] },
      { kind: "text", chunks: ["I see it"] },
      { kind: "text", chunks: ["again"] },
    );
    assert.equal(await api.chat.prompt("hello"), "end_turn", "the server runs and has been told what is on screen");
    assert.ok(!lastUserMessage().includes("docs rules"));

    const intro = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, "docs/guide/intro.md");
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(intro));
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    // The extension sends after a 150 ms quiet spell; the prompt then follows the events on the same pipe.
    await sleep(1000);
    assert.equal(await api.chat.prompt("what am I looking at?"), "end_turn");
    assert.equal(
      lastUserMessage(),
      "what am I looking at?\n\n[The user is looking at docs/guide/intro.md:3 in the editor]\n\n" +
        "[Subdirectory context discovered: docs/AGENTS.md]\ndocs rules from the extension test",
    );

    await sleep(400);
    assert.equal(await api.chat.prompt("and now?"), "end_turn");
    assert.equal(lastUserMessage(), "and now?", "nothing new on screen: no hint and no focus line again");
  });
});

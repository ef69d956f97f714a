/**
 * The agent's commands run in VS Code (ACP terminal/*): the extension advertises terminals, runs a scripted terminal
 * tool call itself, shows it in a "Hermes: <command>" terminal, and the model receives its output.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import { type ScriptedLlm, scriptedCall } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes } from "../helpers/scripted-hermes.js";

describe("agent commands in VS Code terminals", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;

  before(async () => {
    ({ api, llm } = await startScriptedHermes());
  });

  after(async () => {
    for (const terminal of vscode.window.terminals) if (terminal.name.startsWith("Hermes: ")) terminal.dispose();
    await llm.close();
  });

  it("runs a terminal tool call in a Hermes terminal and gives the model its output", async () => {
    const command = "echo from-the-editor-terminal; echo to-stderr >&2; exit 2";
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("t1", "terminal", { command })] },
      { kind: "text", chunks: ["seen"] },
    );
    assert.equal(await api.chat.prompt("run the check"), "end_turn");
    const result = JSON.parse(
      String(
        llm.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === "tool")
          .at(-1)!.content,
      ),
    ) as { output: string; exit_code: number };
    assert.equal(result.exit_code, 2);
    assert.match(result.output, /from-the-editor-terminal/);
    assert.match(result.output, /to-stderr/);
    const shown = vscode.window.terminals.map((t) => t.name);
    assert.ok(
      shown.some((name) => name.startsWith("Hermes: echo from-the-editor-terminal")),
      `terminals: ${shown.join(", ")}`,
    );
  });
});

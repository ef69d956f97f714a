/**
 * "Ask Hermes to fix" on a diagnostic, inside real VS Code with the real server: the light bulb offers it, and
 * choosing it starts a turn whose message carries the problem and the code around it.
 */
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { contextMatches } from "../../../extension/editor-context/context-mentions.js";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes } from "../helpers/scripted-hermes.js";

describe("Ask Hermes to fix (quick fix on a diagnostic)", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let workspace: string;
  const diagnostics = vscode.languages.createDiagnosticCollection("hermes-test");

  before(async () => {
    ({ api, llm, workspace } = await startScriptedHermes());
    await api.chat.newChat();
  });

  after(async () => {
    diagnostics.dispose();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  it("is offered on the problem and starts a turn with the diagnostic and its code", async () => {
    const file = join(workspace, "fix-me.ts");
    writeFileSync(file, "const a = 1;\nconst total: number = 'two';\nexport { a, total };\n");
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(uri);
    const problem = new vscode.Diagnostic(
      new vscode.Range(1, 6, 1, 11),
      "Type 'string' is not assignable to type 'number'.",
      vscode.DiagnosticSeverity.Error,
    );
    problem.source = "ts";
    problem.code = 2322;
    diagnostics.set(uri, [problem]);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      "vscode.executeCodeActionProvider",
      uri,
      new vscode.Range(1, 8, 1, 8),
    );
    const fix = actions.find((a) => a.title.startsWith("Ask Hermes to fix"));
    assert.ok(fix?.command, `offered among: ${actions.map((a) => a.title).join(" | ")}`);
    assert.equal(fix.title, "Ask Hermes to fix: Type 'string' is not assignable to type 'number'.");

    llm.enqueue({ kind: "text", chunks: ["Changed it to 2."] });
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    const sent =
      llm.requests
        .at(-1)!
        .body.messages.filter((m) => m.role === "user")
        .at(-1)!.content ?? "";
    assert.match(
      sent,
      /^Fix this problem in fix-me\.ts:2:7: error 2322 \(ts\): Type 'string' is not assignable to type 'number'\./,
    );
    assert.match(sent, /const total: number = 'two';/, "the code around the problem is attached");
    assert.ok(api.chat.snapshot.items.some((i) => i.kind === "agent" && i.markdown.includes("Changed it to 2.")));
  });

  it("offers @problems after @ and sends the workspace's problems with the prompt that names it", async () => {
    const offered = await contextMatches("pro");
    assert.deepEqual(
      offered.map((m) => m.reference),
      ["@problems "],
    );
    llm.enqueue({ kind: "text", chunks: ["One error."] });
    await api.chat.prompt("what is wrong here? @problems");
    const sent =
      llm.requests
        .at(-1)!
        .body.messages.filter((m) => m.role === "user")
        .at(-1)!.content ?? "";
    assert.match(sent, /\[Attached file: problems\]/);
    assert.match(sent, /^fix-me\.ts:2:7 error ts 2322: Type 'string' is not assignable to type 'number'\.$/m);
  });
});

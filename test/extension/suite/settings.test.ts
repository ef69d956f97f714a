/** The extension's settings, inside real VS Code with the real server: hermes.model picks a configured model. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

describe("hermes.model", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  const settings = () => vscode.workspace.getConfiguration("hermes");

  before(async () => {
    await settings().update("model", "backup-model", vscode.ConfigurationTarget.Global);
    ({ api, llm } = await startScriptedHermes({
      moreConfig: (scripted) =>
        `fallback_providers:\n  - provider: custom\n    model: backup-model\n    base_url: ${scripted.baseUrl}\n`,
    }));
  });

  after(async () => {
    await settings().update("model", undefined, vscode.ConfigurationTarget.Global);
    await llm.close();
  });

  it("starts a chat on the configured model it names, and the model is asked under that name", async () => {
    await api.chat.newChat();
    await api.chat.connect();
    const model = () => api.chat.snapshot.pickers.find((p) => p.id === "model")?.currentValue ?? "";
    await until(() => model().endsWith("backup-model"), `the model picker on backup-model (${model()})`);
    llm.enqueue({ kind: "text", chunks: ["from the backup"] });
    await api.chat.prompt("which model?");
    assert.equal(llm.requests.at(-1)!.body.model, "backup-model");
  });
});

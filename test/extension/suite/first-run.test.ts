/**
 * A first run without a model, inside real VS Code with the real server: the prompt meets the setup card, the setup
 * (the server's own --setup, with a test call to the endpoint) configures HERMES_HOME, and the waiting prompt then
 * gets its streamed reply.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { SetupItem } from "../../../webview-ui/protocol.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

describe("first run: no model yet", function () {
  this.timeout(90_000);
  let api: HermesApi;
  let llm: ScriptedLlm;

  before(async () => {
    ({ api, llm } = await startScriptedHermes({ configured: false }));
    await api.chat.newChat().catch(() => undefined);
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  it("shows the setup card, sets the model up with a test call, then answers the waiting prompt", async () => {
    await assert.rejects(api.chat.prompt("hello there"));
    const card = () => api.chat.snapshot.items.find((i): i is SetupItem => i.kind === "setup");
    await until(() => card() !== undefined, "the setup card");
    assert.match(card()!.problem, /No model configured/);
    assert.match(card()!.problem, /--setup/);
    const message = api.chat.snapshot.items.find((i) => i.kind === "user" && i.text === "hello there");
    assert.ok(message?.kind === "user" && !message.canEdit && !message.canRetry, "no Retry for a message never sent");

    llm.enqueue({ kind: "text", chunks: ["OK"] }, { kind: "text", chunks: ["Hello from Hermes."] });
    const result = await api.chat.setup.complete(card()!.id, {
      provider: "custom",
      model: "scripted-model",
      baseUrl: llm.baseUrl,
    });
    assert.equal(result.ok, true, result.verdict);
    assert.match(card()!.verdict ?? "", /^Works: scripted-model answered/);
    await until(
      () => api.chat.snapshot.items.some((i) => i.kind === "agent" && i.markdown === "Hello from Hermes."),
      "the reply to the waiting prompt",
    );
    const config = readFileSync(join(process.env.HERMES_HOME!, "config.yaml"), "utf8");
    assert.match(config, /scripted-model/);
    const asked = llm.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === "user")
      .map((m) => m.content);
    assert.deepEqual(asked, ["hello there"], "the waiting prompt, once");
  });
});

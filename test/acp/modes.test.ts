import { strict as assert } from "node:assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { scriptedCall } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

const call = scriptedCall;
type Update = acp.SessionNotification["update"];

/** The server of these tests: a fallback model besides the default, an a.txt in the workspace, `answer` to edits. */
const modesServer = (answer: () => string, restarts = false) =>
  useScriptedServer({
    config: ({ llm }) =>
      "fallback_providers:\n  - provider: custom\n    model: backup-model\n    base_url: " + llm.baseUrl + "\n",
    maxRetries: 0,
    restarts,
    permission: answer,
    prepare: ({ workspace }) => writeFileSync(join(workspace, "a.txt"), "one\n"),
  });

describe("hermes-acp: modes, models, edit approval and session lifecycle", () => {
  let answers: string[] = [];
  const server = modesServer(() => answers.shift() ?? "deny");
  beforeEach(() => (answers = []));

  it("offers the mode and the configured models as config options, and the mode as legacy modes too", async () => {
    const created = await server.harness.agent.request("session/new", { cwd: server.workspace, mcpServers: [] });
    const options = created.configOptions!;
    const mode = options.find((o) => o.id === "mode")!;
    assert.equal(mode.category, "mode");
    assert.equal((mode as { currentValue: string }).currentValue, "default");
    assert.deepEqual(
      (mode as { options: Array<{ value: string }> }).options.map((o) => o.value),
      ["read_only", "default", "accept_edits", "yolo"],
    );
    const model = options.find((o) => o.id === "model")!;
    assert.deepEqual(
      (model as { options: Array<{ value: string }> }).options.map((o) => o.value),
      ["custom:scripted-model", "custom:backup-model"],
    );
    assert.equal(created.modes!.currentModeId, "default");

    const changed = await server.harness.agent.request("session/set_config_option", {
      sessionId: created.sessionId,
      configId: "model",
      value: "custom:backup-model",
    } as never);
    assert.equal(
      (changed as { configOptions: Array<{ id: string; currentValue: string }> }).configOptions.find(
        (o) => o.id === "model",
      )!.currentValue,
      "custom:backup-model",
    );
    server.llm.enqueue({ kind: "text", chunks: ["from backup"] });
    await server.harness.prompt(created.sessionId, "hi");
    assert.equal(server.llm.requests[0]!.body.model, "backup-model");
    assert.match(String(server.llm.requests[0]!.body.messages[0]!.content), /Model: backup-model/);
  });

  it("asks before an edit in the default mode, with the diff on the tool call, and respects a denial", async () => {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("e1", "patch", { path: "a.txt", old_string: "one", new_string: "two" })] },
      { kind: "text", chunks: ["ok"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    answers = ["deny"];
    await server.harness.prompt(sessionId, "edit it");
    assert.equal(server.permissions.length, 1);
    assert.equal(server.permissions[0]!.toolCall.toolCallId, "e1");
    assert.deepEqual(server.permissions[0]!.toolCall.content, [
      { type: "diff", path: join(server.workspace, "a.txt"), oldText: "one\n", newText: "two\n" },
    ]);
    assert.deepEqual(
      server.permissions[0]!.options.map((o) => o.kind),
      ["allow_once", "reject_once"],
    );
    assert.equal(readFileSync(join(server.workspace, "a.txt"), "utf8"), "one\n");
    assert.match(String(server.llm.requests[1]!.body.messages.at(-1)!.content), /Edit approval denied by the user/);
  });

  it("closes and deletes sessions", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["x"] });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "keep me");
    await server.harness.agent.request("session/close", { sessionId });
    await assert.rejects(server.harness.prompt(sessionId, "after close"), (e: { code: number }) => e.code === -32002);
    assert.equal(
      (await server.harness.agent.request("session/list", {})).sessions.length,
      1,
      "a closed session stays saved",
    );
    await server.harness.agent.request("session/delete", { sessionId });
    assert.equal((await server.harness.agent.request("session/list", {})).sessions.length, 0);
  });

  it("answers /model, /usage, /memory and /new locally", async () => {
    mkdirSync(join(server.home, "memories"), { recursive: true });
    writeFileSync(join(server.home, "memories", "MEMORY.md"), "Project uses pnpm");
    server.llm.enqueue({ kind: "text", chunks: ["one"] }, { kind: "text", chunks: ["two"] });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "first");
    const reply = async (text: string) => {
      const before = server.harness.replyText(sessionId).length;
      await server.harness.prompt(sessionId, text);
      return server.harness.replyText(sessionId).slice(before);
    };
    assert.equal(await reply("/model"), "Current model: scripted-model\nProvider: custom");
    assert.equal(await reply("/model backup-model"), "Model switched to: backup-model\nProvider: custom");
    const update = server.harness.updates
      .map((u) => u.update)
      .find((u) => u.sessionUpdate === "config_option_update") as {
      configOptions: Array<{ id: string; currentValue: string }>;
    };
    assert.equal(update.configOptions.find((o) => o.id === "model")!.currentValue, "custom:backup-model");
    assert.match(await reply("/usage"), /^Model calls: 1\nInput tokens: 12/);
    assert.match(await reply("/memory"), /\*\*Memory\*\* \(17\/2,200 chars, .*MEMORY\.md\)\n- Project uses pnpm/);
    assert.equal(await reply("/new"), "Conversation history cleared.");
    await server.harness.prompt(sessionId, "after reset");
    assert.deepEqual(
      server.llm.requests[1]!.body.messages.map((m) => m.role),
      ["system", "user"],
      "the history starts afresh",
    );
    assert.equal(server.llm.requests[1]!.body.model, "backup-model");
  });

  it("refuses an unknown mode or model with invalid params", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    await assert.rejects(
      server.harness.agent.request("session/set_mode", { sessionId, modeId: "turbo" }),
      (e: { code: number }) => e.code === -32602,
    );
    await assert.rejects(
      server.harness.agent.request("session/set_config_option", {
        sessionId,
        configId: "model",
        value: "x:y",
      } as never),
      (e: { code: number }) => e.code === -32602,
    );
  });
});

describe("hermes-acp: a session reloaded in a second server", () => {
  // The second server reads what the first folded into sessions.sqlite at exit (restarts: only this one folds).
  const server = modesServer(() => "deny", true);

  it("edits without asking in accept-edits mode, remembers the mode across a reload, and titles the session", async () => {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("e1", "write_file", { path: "b.txt", content: "new" })] },
      { kind: "text", chunks: ["written"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.agent.request("session/set_mode", { sessionId, modeId: "accept_edits" });
    await server.harness.prompt(sessionId, "Create b.txt please");
    assert.equal(server.permissions.length, 0);
    assert.equal(readFileSync(join(server.workspace, "b.txt"), "utf8"), "new");
    const info = server.harness.updates
      .map((u) => u.update)
      .find((u) => u.sessionUpdate === "session_info_update") as Extract<
      Update,
      { sessionUpdate: "session_info_update" }
    >;
    assert.equal(info.title, "Create b.txt please");

    await server.harness.close();
    server.harness = AcpHarness.spawn(serverEnv(server.home, DISCARDED_HOME_ENV));
    await server.harness.initialize();
    const loaded = await server.harness.agent.request("session/load", {
      sessionId,
      cwd: server.workspace,
      mcpServers: [],
    });
    assert.equal(loaded.modes!.currentModeId, "accept_edits");
  });

  it("resumes a saved session without replaying it", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["first"] }, { kind: "text", chunks: ["second"] });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "remember me");
    await server.harness.close();
    server.harness = AcpHarness.spawn(serverEnv(server.home, DISCARDED_HOME_ENV));
    await server.harness.initialize();
    await server.harness.agent.request("session/resume", { sessionId, cwd: server.workspace });
    assert.equal(server.harness.updates.filter((u) => u.update.sessionUpdate === "user_message_chunk").length, 0);
    await server.harness.prompt(sessionId, "still there?");
    assert.deepEqual(
      server.llm.requests[1]!.body.messages.map((m) => m.role),
      ["system", "user", "assistant", "user"],
    );
  });
});

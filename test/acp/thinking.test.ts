import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

interface SelectOption {
  id: string;
  name: string;
  category?: string;
  currentValue: string;
  options: Array<{ value: string; name: string }>;
}

const optionsOf = (response: unknown) => (response as { configOptions: SelectOption[] }).configOptions;
const thinkingOf = (response: unknown) => optionsOf(response).find((o) => o.id === "reasoning_effort");

describe("hermes-acp: the Thinking (reasoning effort) config option", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let home: string;
  let workspace: string;
  let harness: AcpHarness;

  /**
   * A gpt-5.1 on a chat-completions endpoint (the scripted one), with a model of unknown abilities as fallback.
   * `reloaded`: another server opens the home after this one, so this one folds its journals at exit as in production.
   */
  function start(extraYaml = "", reloaded = false): void {
    home = hermesHomeFor(
      temp.make(),
      llm.baseUrl,
      "gpt-5.1",
      `fallback_providers:\n  - provider: custom\n    model: local-model\n    base_url: ${llm.baseUrl}\n${extraYaml}`,
      0,
    );
    harness = AcpHarness.spawn(reloaded ? serverEnv(home) : serverEnv(home, DISCARDED_HOME_ENV));
  }

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    workspace = temp.make("hermes-ws-");
  });

  afterEach(async () => {
    await harness.close();
    await llm.close();
    assert.deepEqual(harness.violations, []);
    temp.cleanup();
  });

  it("lists the model's levels, sends the chosen one from the next request, and keeps it across a reload", async () => {
    start("", true);
    await harness.initialize();
    const created = await harness.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    assert.deepEqual(thinkingOf(created), {
      id: "reasoning_effort",
      name: "Thinking",
      description: "How hard the model reasons before it answers",
      category: "thought_level",
      type: "select",
      currentValue: "medium",
      options: [
        { value: "none", name: "None" },
        { value: "low", name: "Low" },
        { value: "medium", name: "Medium" },
        { value: "high", name: "High" },
      ],
    });
    assert.deepEqual(
      optionsOf(created).map((o) => o.id),
      ["mode", "model", "reasoning_effort"],
    );

    llm.enqueue(
      { kind: "text", chunks: ["default"] },
      { kind: "text", chunks: ["harder"] },
      { kind: "text", chunks: ["after reload"] },
    );
    await harness.prompt(created.sessionId, "first");
    assert.equal(llm.requests[0]!.json.reasoning_effort, undefined, "OpenAI's own default until the user chooses");

    const changed = await harness.agent.request("session/set_config_option", {
      sessionId: created.sessionId,
      configId: "reasoning_effort",
      value: "high",
    } as never);
    assert.equal(thinkingOf(changed)!.currentValue, "high");
    await harness.prompt(created.sessionId, "second");
    assert.equal(llm.requests[1]!.json.reasoning_effort, "high");

    await harness.close();
    harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV));
    await harness.initialize();
    const loaded = await harness.agent.request("session/load", {
      sessionId: created.sessionId,
      cwd: workspace,
      mcpServers: [],
    });
    assert.equal(thinkingOf(loaded)!.currentValue, "high");
    await harness.prompt(created.sessionId, "third");
    assert.equal(llm.requests[2]!.json.reasoning_effort, "high");
  });

  it("takes a change made during a turn on the turn's next model call", async () => {
    start();
    await harness.initialize();
    const sessionId = await harness.newSession(workspace);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.respondWith(async (request) => {
      if (llm.requests.indexOf(request) !== 0) return undefined;
      await held;
      return {
        kind: "tool_calls",
        calls: [scriptedCall("t1", "todo", { todos: [{ id: "1", content: "look", status: "pending" }] })],
      };
    });
    llm.enqueue({ kind: "text", chunks: ["done"] });
    const turn = harness.prompt(sessionId, "plan it");
    await llm.waitForRequests(1);
    await harness.agent.request("session/set_config_option", {
      sessionId,
      configId: "reasoning_effort",
      value: "low",
    } as never);
    release();
    assert.equal((await turn).stopReason, "end_turn");
    assert.deepEqual(
      llm.requests.map((r) => r.json.reasoning_effort),
      [undefined, "low"],
    );
  });

  it("starts from agent.reasoning_effort (clamped to the model), and is gone for a model it does not know", async () => {
    start("agent:\n  reasoning_effort: xhigh\n");
    await harness.initialize();
    const created = await harness.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    assert.equal(thinkingOf(created)!.currentValue, "high");
    llm.enqueue({ kind: "text", chunks: ["a"] }, { kind: "text", chunks: ["b"] });
    await harness.prompt(created.sessionId, "hi");
    assert.equal(llm.requests[0]!.json.reasoning_effort, "high");

    await assert.rejects(
      harness.agent.request("session/set_config_option", {
        sessionId: created.sessionId,
        configId: "reasoning_effort",
        value: "xhigh",
      } as never),
      (e: { code: number; message: string }) =>
        e.code === -32602 && /'xhigh' is not a Thinking level of gpt-5\.1/.test(e.message),
    );
    const switched = await harness.agent.request("session/set_config_option", {
      sessionId: created.sessionId,
      configId: "model",
      value: "custom:local-model",
    } as never);
    assert.equal(thinkingOf(switched), undefined);
    // The configured level still goes to a model of unknown abilities: the user asked for it.
    await harness.prompt(created.sessionId, "hi again");
    assert.equal(llm.requests[1]!.json.reasoning_effort, "xhigh");
  });

  it("refuses to open a session when agent.reasoning_effort is not a level, naming the line", async () => {
    start();
    writeFileSync(
      join(home, "config.yaml"),
      `model:\n  provider: custom\n  default: gpt-5.1\n  base_url: ${llm.baseUrl}\nagent:\n  reasoning_effort: maximum\n`,
    );
    await harness.initialize();
    await assert.rejects(
      harness.agent.request("session/new", { cwd: workspace, mcpServers: [] }),
      (e: { message: string }) => {
        assert.match(
          e.message,
          /config\.yaml:6:\d+: agent\.reasoning_effort must be one of none, minimal, low, medium, high, xhigh, not 'maximum'/,
        );
        return true;
      },
    );
  });
});

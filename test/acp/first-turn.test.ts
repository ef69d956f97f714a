import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { sessionTools } from "../../agent/tools/registry.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { useScriptedServer } from "../helpers/scripted-server.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

describe("hermes-acp over real stdio: a first real turn", () => {
  // Retries are tested on their own below; here each scripted failure must reach the user as it happened. One server
  // for these tests, as an editor keeps one for many sessions; those that need another configuration follow.
  const server = useScriptedServer({ shared: true, maxRetries: 0 });

  it("answers initialize with protocol 1, its identity and only real capabilities", async () => {
    const reply = await server.harness.waitForLine((m) => typeof m.result === "object" && m.id !== undefined);
    const init = reply.result as acp.InitializeResponse;
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.name, "hermes-editor-agent");
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.equal(
      init.agentCapabilities?.promptCapabilities?.image,
      true,
      "images reach vision models (test/acp/images.test.ts)",
    );
  });

  it("streams the reply as agent_message_chunk updates before session/prompt returns end_turn", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["Hello", ", ", "world"], chunkDelayMs: 150 });
    const sessionId = await server.harness.newSession(server.workspace);
    let settled = false;
    const turn = server.harness.prompt(sessionId, "Say hello").finally(() => (settled = true));
    while (server.harness.updates.length === 0) await new Promise((r) => setTimeout(r, 10));
    assert.equal(settled, false, "the first chunk must arrive while the turn is still running");
    const response = await turn;
    assert.equal(response.stopReason, "end_turn");
    assert.equal(server.harness.replyText(sessionId), "Hello, world");
    const chunks = server.harness.updates.filter((u) => u.update.sessionUpdate === "agent_message_chunk");
    assert.equal(chunks.length, 3, "each streamed delta is its own update");

    const request = server.llm.requests[0]!;
    assert.equal(request.body.stream, true);
    assert.equal(request.body.model, "scripted-model");
    assert.equal(request.body.messages[0]!.role, "system");
    assert.match(String(request.body.messages[0]!.content), /^You are Hermes Agent/);
    assert.deepEqual(request.body.messages.at(-1), { role: "user", content: "Say hello" });
  });

  it("offers the model every built-in tool with the schema its sources define (the build writes them ahead)", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["ok"] });
    await server.harness.prompt(await server.harness.newSession(server.workspace), "hi");
    const offered = new Map(
      (server.llm.requests[0]!.body.tools ?? []).map((t) => [t.function.name, t.function.parameters] as const),
    );
    for (const tool of sessionTools()) {
      if (!offered.has(tool.name)) continue; // a toolset the test config leaves out
      assert.deepEqual(
        offered.get(tool.name),
        tool.parameters,
        `${tool.name}'s schema as zod writes it from the sources`,
      );
    }
    assert.ok(offered.has("read_file") && offered.has("terminal") && offered.has("patch"), [...offered.keys()].join());
  });

  it("keeps the conversation across turns", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["First answer"] }, { kind: "text", chunks: ["Second answer"] });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "one");
    await server.harness.prompt(sessionId, "two");
    const roles = server.llm.requests[1]!.body.messages.map((m) => `${m.role}:${m.content}`);
    assert.deepEqual(roles.slice(1), ["user:one", "assistant:First answer", "user:two"]);
  });

  it("cancels mid-stream: the HTTP request is aborted at once and the prompt returns cancelled", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["partial"], stall: true });
    const sessionId = await server.harness.newSession(server.workspace);
    const turn = server.harness.prompt(sessionId, "write a long essay");
    while (server.harness.replyText(sessionId) !== "partial") await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await server.harness.agent.notify("session/cancel", { sessionId });
    const response = await turn;
    assert.equal(response.stopReason, "cancelled");
    assert.ok(Date.now() - started < 10_000, "cancel does not wait for a model that never finishes");
    for (let i = 0; i < 50 && !server.llm.requests[0]!.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.llm.requests[0]!.aborted, true, "the LLM request must be aborted");
  });

  it("reports a 401 in words the user can act on, then the next prompt works", async () => {
    server.llm.enqueue(
      { kind: "error", status: 401, message: "Invalid API key provided" },
      { kind: "text", chunks: ["Back online"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    const first = await server.harness.prompt(sessionId, "hello?");
    assert.equal(first.stopReason, "end_turn");
    const message = server.harness.replyText(sessionId);
    assert.match(message, /refused the request with HTTP 401/);
    assert.match(message, /Invalid API key provided/);
    assert.match(message, /CUSTOM_API_KEY|OPENAI_API_KEY/, "it names the variable that holds the key");

    const second = await server.harness.prompt(sessionId, "hello again");
    assert.equal(second.stopReason, "end_turn");
    assert.ok(server.harness.replyText(sessionId).endsWith("Back online"));
    const sent = server.llm.requests[1]!.body.messages.map((m) => m.content);
    assert.deepEqual(sent.slice(1), ["hello again"], "the failed turn is not replayed into the history");
  });

  it("explains a 5xx and a model the server does not know", async () => {
    server.llm.enqueue(
      { kind: "error", status: 503, message: "overloaded" },
      { kind: "error", status: 404, message: "model not found" },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "a");
    assert.match(server.harness.replyText(sessionId), /server error \(HTTP 503\)/);
    await server.harness.prompt(sessionId, "b");
    assert.match(server.harness.replyText(sessionId), /HTTP 404 for model 'scripted-model'/);
  });

  it("treats a reply cut off mid-stream as a failure and does not keep half of it", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["Half a sen"], cutOff: true }, { kind: "text", chunks: ["Whole"] });
    const sessionId = await server.harness.newSession(server.workspace);
    const first = await server.harness.prompt(sessionId, "tell me");
    assert.equal(first.stopReason, "end_turn");
    assert.match(server.harness.replyText(sessionId), /cut off before the model finished/);
    await server.harness.prompt(sessionId, "again");
    assert.deepEqual(
      server.llm.requests[1]!.body.messages.slice(1).map((m) => m.content),
      ["again"],
    );
  });

  it("answers garbage with a parse error and unknown methods with -32601, and keeps serving", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["still here"] });
    server.harness.writeRaw("this is not json\n");
    await server.harness.waitForLine((m) => (m.error as { code?: number } | undefined)?.code === -32700);
    server.harness.writeRaw('{"jsonrpc":"2.0","id":"x1","method":"session/frobnicate","params":{}}\n');
    const unknown = await server.harness.waitForLine((m) => m.id === "x1");
    assert.equal((unknown.error as { code: number }).code, -32601);
    server.harness.writeRaw(
      '{"jsonrpc":"2.0","id":"x2","method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}\n',
    );
    const missing = await server.harness.waitForLine((m) => m.id === "x2");
    assert.equal((missing.error as { code: number }).code, -32002);

    const sessionId = await server.harness.newSession(server.workspace);
    assert.equal((await server.harness.prompt(sessionId, "ping")).stopReason, "end_turn");
    assert.equal(server.harness.replyText(sessionId), "still here");
  });
});

describe("hermes-acp over real stdio: a model whose context window is configured", () => {
  const server = useScriptedServer({ maxRetries: 0, config: "  context_length: 32000\n" });

  it("reports the context fill after a turn when the model's window is known", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["a", "b"] });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "count");
    const usage = server.harness.updates.map((u) => u.update).find((u) => u.sessionUpdate === "usage_update");
    assert.deepEqual(usage, { sessionUpdate: "usage_update", used: 14, size: 32000 });
  });
});

describe("hermes-acp over real stdio: retries on", () => {
  const server = useScriptedServer({ maxRetries: 2 });

  it("retries a 429 after its Retry-After and a 503, invisibly, when retries are on", async () => {
    server.llm.enqueue(
      { kind: "error", status: 429, message: "slow down", headers: { "retry-after": "0.05" } },
      { kind: "error", status: 503, message: "overloaded", headers: { "retry-after": "0" } },
      { kind: "text", chunks: ["third time lucky"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    assert.equal((await server.harness.prompt(sessionId, "hi")).stopReason, "end_turn");
    assert.equal(server.harness.replyText(sessionId), "third time lucky");
    assert.equal(server.llm.requests.length, 3);
  });
});

describe("hermes-acp over real stdio: configuration problems", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("refuses session/new with the file and line of a broken config.yaml, and recovers once it is fixed", async () => {
    const llm = await ScriptedLlm.start();
    const home = temp.make();
    const configPath = join(home, "config.yaml");
    writeFileSync(configPath, "model:\n  provider: custom\n  default: [unclosed\n");
    const harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV));
    try {
      await harness.initialize();
      await assert.rejects(harness.newSession(home), (error: { code: number; message: string }) => {
        assert.equal(error.code, -32603);
        assert.ok(error.message.includes(`${configPath}:`), error.message);
        assert.match(error.message, /config\.yaml:\d+:\d+: /);
        return true;
      });
      writeFileSync(configPath, `model:\n  provider: custom\n  default: fixed-model\n  base_url: ${llm.baseUrl}\n`);
      llm.enqueue({ kind: "text", chunks: ["fixed"] });
      const sessionId = await harness.newSession(home);
      await harness.prompt(sessionId, "works now?");
      assert.equal(harness.replyText(sessionId), "fixed");
      assert.deepEqual(harness.violations, []);
    } finally {
      await harness.close();
      await llm.close();
    }
  });

  it("explains an endpoint that cannot be reached", async () => {
    const closed = await ScriptedLlm.start();
    const deadUrl = closed.baseUrl;
    await closed.close();
    const home = hermesHomeFor(temp.make(), deadUrl, "scripted-model", "", 0);
    const harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV));
    try {
      await harness.initialize();
      const sessionId = await harness.newSession(home);
      assert.equal((await harness.prompt(sessionId, "anyone?")).stopReason, "end_turn");
      assert.match(
        harness.replyText(sessionId),
        /Could not reach Custom OpenAI-compatible endpoint \(http:\/\/127\.0\.0\.1:\d+\/v1\)/,
      );
      assert.deepEqual(harness.violations, []);
    } finally {
      await harness.close();
    }
  });

  it("writes nothing but JSON-RPC on stdout, even with --verbose", async () => {
    // A usable configuration (session/new needs one); the model itself is never called here.
    const home = hermesHomeFor(temp.make(), "http://127.0.0.1:9/v1");
    const harness = AcpHarness.spawn(serverEnv(home), { args: ["--verbose"] });
    try {
      await harness.initialize();
      await harness.newSession(home);
      assert.ok(harness.stdoutLines.length >= 2);
      assert.deepEqual(harness.violations, []);
    } finally {
      await harness.close();
    }
    assert.match(harness.stderr, /\[hermes-editor\] debug/);
  });
});

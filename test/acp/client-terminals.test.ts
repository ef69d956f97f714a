import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import { probeSandbox } from "../../agent/sandbox/sandbox-probe.js";
import { onTerminalRequests, TerminalHandlers } from "../../extension/acp/terminal-handlers.js";
import { type RecordedRequest, ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

const call = scriptedCall;
const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

/** The extension's own terminal handlers (real processes), with every request the agent made recorded in order. */
class RecordingTerminals extends TerminalHandlers {
  readonly calls: Array<{ method: string; params: { terminalId?: string } & Record<string, unknown> }> = [];
  refuseCreate = false;
  override create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    this.calls.push({ method: "create", params });
    if (this.refuseCreate) throw acp.RequestError.internalError(undefined, "terminals are disabled here");
    return super.create(params);
  }
  override kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    this.calls.push({ method: "kill", params });
    return super.kill(params);
  }
  override release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    this.calls.push({ method: "release", params });
    return super.release(params);
  }
  methods(): string[] {
    return this.calls.map((c) => c.method);
  }
}

describe("hermes-acp: commands in the editor's terminals (client terminal/*)", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let harness: AcpHarness;
  let terminals: RecordingTerminals;
  let workspace: string;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    workspace = temp.make("hermes-ws-");
    terminals = new RecordingTerminals();
    const client = onTerminalRequests(acp.client({ name: "editor-with-terminals" }), terminals).onRequest(
      "session/request_permission",
      async () => ({
        outcome: { outcome: "selected", optionId: "allow_once" },
      }),
    );
    harness = AcpHarness.spawn(
      serverEnv(hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "", 0), DISCARDED_HOME_ENV),
      { client },
    );
    await harness.initialize({ terminal: true });
  });

  afterEach(async () => {
    await harness.close();
    terminals.dispose();
    await llm.close();
    assert.deepEqual(harness.violations, []);
    temp.cleanup();
  });

  const toolResult = (request: number) =>
    JSON.parse(String(llm.requests[request]!.body.messages.filter((m) => m.role === "tool").at(-1)!.content)) as {
      output: string;
      exit_code: number | null;
      error: string | null;
    };
  /** Index of the first raw line the server wrote that satisfies `predicate`. */
  const lineIndex = (predicate: (message: { method?: string; params?: Record<string, unknown> }) => boolean) =>
    harness.stdoutLines.findIndex((line) =>
      predicate(JSON.parse(line) as { method?: string; params?: Record<string, unknown> }),
    );
  const embeds = (terminalId: string) => (m: { method?: string; params?: Record<string, unknown> }) =>
    m.method === "session/update" &&
    JSON.stringify((m.params as { update?: { content?: unknown } }).update?.content ?? null).includes(
      `{"type":"terminal","terminalId":"${terminalId}"}`,
    );

  it("runs a tool call's command in the editor's terminal, embeds it in the call before releasing it, and gives the model its output", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [call("t1", "terminal", { command: "echo out; echo err >&2; exit 3" })] },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "run it");

    const create = terminals.calls[0]!;
    assert.equal(create.method, "create");
    const argv = [create.params.command as string, ...(create.params.args as string[])];
    assert.deepEqual(argv.slice(-3), [SHELL, "-c", "echo out; echo err >&2; exit 3"]);
    assert.deepEqual([create.params.cwd, create.params.outputByteLimit], [workspace, 1_048_576]);
    // The editor starts the same sandbox launcher as a local command would run in: containment does not depend on
    // where the command is shown.
    if ((await probeSandbox()).available) {
      assert.match(argv[0]!, /bwrap$/);
      assert.deepEqual(argv.slice(argv.indexOf("--ro-bind"), argv.indexOf("--ro-bind") + 3), ["--ro-bind", "/", "/"]);
      assert.equal(argv[argv.indexOf("--chdir") + 1], workspace);
    }
    assert.ok(
      (create.params.env as acp.EnvVariable[]).some((v) => v.name === "PAGER" && v.value === "cat"),
      "the same quiet defaults as local commands",
    );
    assert.deepEqual(terminals.methods(), ["create", "release"]);

    const result = toolResult(1);
    assert.equal(result.exit_code, 3);
    assert.match(result.output, /out/);
    assert.match(result.output, /err/);

    const terminalId = "term_1";
    const embedded = lineIndex(embeds(terminalId));
    const released = lineIndex((m) => m.method === "terminal/release");
    assert.ok(embedded >= 0 && embedded < released, "the terminal is in the tool call before it is released");
    const final = harness.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "t1")
      .at(-1) as acp.ToolCallUpdate & { sessionUpdate: string };
    assert.equal(final.status, "failed");
    assert.deepEqual(
      final.content,
      [
        { type: "terminal", terminalId },
        { type: "content", content: { type: "text", text: "exit code 3" } },
      ],
      "the terminal, and how it ended (its output is in the terminal, not repeated)",
    );
  });

  it("shows the terminal in the tool call while it runs, without a copy of its output, and keeps all of a large output's end", async () => {
    // ~2.7 MB of distinct lines, most of it within one poll: the editor keeps only the last 1 MB. The pause gives a poll
    // time to see "first" before the flood, even on a loaded machine (0.6 s was not always enough in CI).
    const command = "echo first; sleep 2; seq 1 400000; echo LAST";
    llm.enqueue({ kind: "tool_calls", calls: [call("t1", "terminal", { command })] }, { kind: "text", chunks: ["ok"] });
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "run");
    const live = harness.updates
      .map((n) => n.update)
      .filter(
        (u): u is acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } =>
          u.sessionUpdate === "tool_call_update" && u.status === "in_progress",
      );
    // While it runs, the call shows the terminal (the editor renders its live output) and no copy of the output.
    assert.ok(live.length > 0, "progress while the command ran");
    for (const update of live) assert.deepEqual(update.content, [{ type: "terminal", terminalId: "term_1" }]);
    const result = toolResult(1);
    assert.equal(result.exit_code, 0);
    assert.match(result.output, /^first\n/);
    assert.match(result.output, /\n399999\n400000\nLAST\n$/, "the end survives the editor's 1 MB limit");
  });

  it("kills the editor's terminal when the command times out, and still releases it", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [call("t1", "terminal", { command: "sleep 30", timeout: 1 })] },
      { kind: "text", chunks: ["ok"] },
    );
    const sessionId = await harness.newSession(workspace);
    const started = Date.now();
    await harness.prompt(sessionId, "wait");
    assert.ok(Date.now() - started < 10_000, "the turn did not wait for sleep 30");
    assert.deepEqual(terminals.methods(), ["create", "kill", "release"]);
    assert.match(String(toolResult(1).error), /timed out after 1s/);
  });

  it("kills and releases the terminal when the user cancels the turn", async () => {
    llm.enqueue({ kind: "tool_calls", calls: [call("t1", "terminal", { command: "sleep 30" })] });
    const sessionId = await harness.newSession(workspace);
    const turn = harness.prompt(sessionId, "wait");
    for (let i = 0; i < 200 && terminals.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    await harness.agent.notify("session/cancel", { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    for (let i = 0; i < 200 && !terminals.methods().includes("release"); i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(terminals.methods(), ["create", "kill", "release"]);
  });

  it("runs the command here when the editor refuses to open a terminal, and says so in the log", async () => {
    terminals.refuseCreate = true;
    llm.enqueue(
      { kind: "tool_calls", calls: [call("t1", "terminal", { command: "echo still-ran" })] },
      { kind: "text", chunks: ["ok"] },
    );
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "run");
    assert.deepEqual(terminals.methods(), ["create"]);
    assert.equal(toolResult(1).exit_code, 0);
    assert.match(toolResult(1).output, /still-ran/);
    assert.match(
      harness.stderr,
      /the editor could not open a terminal \(.*terminals are disabled here.*\); running the command here/,
    );
  });

  it("runs a subagent's command here: the editor never saw that call, so no terminal is linked to it", async () => {
    const isChild = (r: RecordedRequest) =>
      String(r.body.messages[0]?.content ?? "").includes("You are a focused subagent");
    llm.enqueue(
      { kind: "tool_calls", calls: [call("d1", "delegate_task", { goal: "Say hello" })] },
      { kind: "text", chunks: ["delegated"] },
    );
    llm.respondWith((request) => {
      if (!isChild(request)) return undefined;
      if (!request.body.messages.some((m) => m.role === "tool"))
        return { kind: "tool_calls", calls: [call("k1", "terminal", { command: "echo from-the-child" })] };
      return { kind: "text", chunks: ["said hello"] };
    });
    const sessionId = await harness.newSession(workspace);
    assert.equal((await harness.prompt(sessionId, "delegate")).stopReason, "end_turn");

    assert.deepEqual(terminals.calls, [], "no editor terminal for a call the editor does not show");
    const childResult = llm.requests
      .filter(isChild)
      .at(-1)!
      .body.messages.filter((m) => m.role === "tool")
      .at(-1)!;
    assert.match(String(childResult.content), /from-the-child/, "the subagent still got its command's output");
    const announced = new Set(
      harness.updates.flatMap((n) => (n.update.sessionUpdate === "tool_call" ? [n.update.toolCallId] : [])),
    );
    const updated = harness.updates.flatMap((n) =>
      n.update.sessionUpdate === "tool_call_update" ? [n.update.toolCallId] : [],
    );
    assert.deepEqual([...announced], ["d1"]);
    assert.deepEqual([...new Set(updated)], ["d1"], "no update for a call the editor never saw");
  });

  it("keeps background processes local (editor terminals take no input)", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [call("b1", "terminal", { command: "sleep 5", background: true })] },
      { kind: "text", chunks: ["ok"] },
    );
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "start a server");
    assert.deepEqual(terminals.calls, []);
    assert.match(String(llm.requests[1]!.body.messages.at(-1)!.content), /"status": ?"running"/);
  });
});

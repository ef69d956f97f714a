import { strict as assert } from "node:assert";
import { ConfigError } from "../../agent/config/config-error.js";
import { readDelegationSettings } from "../../agent/config/delegation-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { createDelegateTool } from "../../agent/delegation/delegate-tool.js";
import type { TokenUsage } from "../../agent/providers/model-client.js";
import { prepareConversation } from "../../agent/session/open-conversation.js";
import { SessionToolState } from "../../agent/tools/session-tool-state.js";
import type { ToolEnvironment } from "../../agent/tools/tool-environment.js";
import type { AgentEvent } from "../../agent/tools/turn-events.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import { type RecordedRequest, ScriptedLlm, type ScriptedReply, scriptedCall } from "../fixtures/scripted-llm.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment } from "../helpers/tool-env.js";

const SUBAGENT_MARK = "You are a focused subagent working on a specific delegated task.";
const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? "");
const isChild = (r: RecordedRequest) => systemOf(r).includes(SUBAGENT_MARK);
const goalOf = (r: RecordedRequest) => /YOUR TASK:\n(.*)/.exec(systemOf(r))?.[1];
const toolNames = (r: RecordedRequest) => (r.body.tools ?? []).map((t) => t.function.name).sort();
const hasToolResult = (r: RecordedRequest) => r.body.messages.some((m) => m.role === "tool");

interface ParentRun {
  readonly events: AgentEvent[];
  readonly usage: TokenUsage[];
  readonly approver: ScriptedUser;
  readonly stop: Promise<string>;
  readonly controller: AbortController;
}

describe("delegation: delegate_task and its subagents", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let workspace: string;
  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    workspace = temp.make("hermes-ws-");
  });
  afterEach(async () => {
    await llm.close();
    temp.cleanup();
  });

  /** A session as the ACP server opens it (real config, real delegate tool and host), running one parent turn. */
  function runParent(delegationYaml: string, approver = new ScriptedUser()): ParentRun {
    const home = hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", delegationYaml);
    const prepared = prepareConversation(workspace, { HERMES_HOME: home, HOME: home });
    assert.ok(prepared.ok);
    const usage: TokenUsage[] = [];
    const env: ToolEnvironment = {
      workspace: new LocalWorkspace(workspace),
      approver,
      home,
      state: new SessionToolState("parent-session", prepared.toolSettings),
      delegation: prepared.delegationHost((u) => usage.push(u)),
    };
    const events: AgentEvent[] = [];
    const controller = new AbortController();
    const stop = prepared.conversation.runTurn("please delegate", controller.signal, (e) => events.push(e), env);
    return { events, usage, approver, stop, controller };
  }

  const progressText = (events: AgentEvent[]) =>
    events
      .filter((e): e is Extract<AgentEvent, { type: "tool_progress" }> => e.type === "tool_progress")
      .map((e) => e.text)
      .join("");

  /** The JSON delegate_task gave back, as the parent model received it on its next request. */
  function delegateResult(callId: string): {
    results: Array<Record<string, unknown>>;
    total_duration_seconds: number;
    error?: string;
  } {
    const parentFollowUp = llm.requests.filter((r) => !isChild(r)).at(-1)!;
    const toolMessage = parentFollowUp.body.messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
    assert.ok(toolMessage, "the parent got the delegate_task result");
    return JSON.parse(String(toolMessage.content)) as ReturnType<typeof delegateResult>;
  }

  it("runs a batch of 3 subagents at once; one that times out is reported as such while the others succeed", async () => {
    const tasks = [
      { goal: "Count the files", context: "The workspace is a test folder.", toolsets: ["terminal"] },
      { goal: "Summarise the plan" },
      { goal: "Wait forever" },
    ];
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_batch", "delegate_task", { tasks })] },
      { kind: "text", chunks: ["All three reported."] },
    );
    // Each subagent's first request is held until all three have arrived: run one after another, none would answer.
    let released: () => void;
    const allThreeArrived = new Promise<void>((resolve) => (released = resolve));
    llm.respondWith(async (request): Promise<ScriptedReply | undefined> => {
      if (!isChild(request)) return undefined;
      if (llm.requests.filter(isChild).length >= 3) released();
      const goal = goalOf(request);
      if (goal === "Count the files") {
        if (hasToolResult(request)) return { kind: "text", chunks: ["There is ", "nothing to count."] };
        await allThreeArrived;
        return { kind: "tool_calls", calls: [scriptedCall("k_ls", "terminal", { command: "echo counted" })] };
      }
      if (goal === "Summarise the plan") {
        await allThreeArrived;
        return { kind: "text", chunks: ["The plan is ", "simple."], usage: { input: 40, output: 7 } };
      }
      return { kind: "hang" };
    });

    const run = runParent("delegation:\n  child_timeout_seconds: 1\n");
    assert.equal(await run.stop, "end_turn");

    const children = llm.requests.filter(isChild);
    assert.equal(children.length, 4, "three first requests, then the counting subagent's follow-up");
    for (const child of children) {
      const tools = toolNames(child);
      for (const forbidden of ["delegate_task", "clarify", "memory"])
        assert.ok(!tools.includes(forbidden), `${forbidden} is not offered to a subagent`);
    }
    assert.deepEqual(
      toolNames(children.find((r) => goalOf(r) === "Count the files")!),
      ["process", "terminal"],
      "toolsets narrow the subagent's tools",
    );
    assert.ok(
      toolNames(children.find((r) => goalOf(r) === "Summarise the plan")!).includes("read_file"),
      "no toolsets: the parent's tools",
    );
    const first = children.find((r) => goalOf(r) === "Count the files")!;
    assert.deepEqual(
      first.body.messages.slice(1).map((m) => [m.role, m.content]),
      [["user", "Count the files"]],
      "no parent history, the goal as the message",
    );
    assert.match(systemOf(first), /CONTEXT:\nThe workspace is a test folder\./);
    assert.ok(systemOf(first).includes(`WORKSPACE PATH:\n${workspace}`));
    assert.ok(toolNames(llm.requests[0]!).includes("delegate_task"), "the parent has delegate_task");

    const { results, total_duration_seconds } = delegateResult("c_batch");
    assert.deepEqual(
      results.map((r) => [r.task_index, r.status, r.summary]),
      [
        [0, "completed", "There is nothing to count."],
        [1, "completed", "The plan is simple."],
        [2, "timeout", null],
      ],
    );
    assert.match(String(results[2]!.error), /^Subagent timed out after 1s with 1 API call\(s\) completed/);
    assert.equal(results[0]!.exit_reason, "completed");
    assert.equal(results[0]!.model, "scripted-model");
    const trace = results[0]!.tool_trace as Array<Record<string, unknown>>;
    assert.deepEqual(
      trace.map((t) => [t.tool, t.args_bytes, t.status]),
      [["terminal", 26, "ok"]],
    );
    assert.ok(Number(trace[0]!.result_bytes) > "counted".length, "the trace says how much the command returned");
    assert.deepEqual(results[1]!.tokens, { input: 40, output: 7 });
    assert.equal(results[1]!.api_calls, 1);
    assert.ok(
      total_duration_seconds >= 1 && total_duration_seconds < 5,
      `the batch took about the timeout, not the sum (${total_duration_seconds}s)`,
    );

    const progress = progressText(run.events);
    for (const line of [
      "[1/3] started: Count the files",
      "[1/3] running: terminal echo counted",
      "[1/3] says: There is nothing to count.",
      "[2/3] completed in",
      "[3/3] timed out after 1",
    ]) {
      assert.ok(progress.includes(line), `progress shows "${line}" in:\n${progress}`);
    }
    assert.ok(
      run.usage.some((u) => u.inputTokens === 40 && u.outputTokens === 7),
      "subagent usage reaches the session's counter",
    );
  });

  it("refuses a batch larger than delegation.max_concurrent_children and tells the model the cap", async () => {
    const tasks = [{ goal: "a" }, { goal: "b" }, { goal: "c" }];
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_big", "delegate_task", { tasks })] },
      { kind: "text", chunks: ["ok"] },
    );
    const run = runParent("delegation:\n  max_concurrent_children: 2\n");
    await run.stop;
    assert.equal(llm.requests.filter(isChild).length, 0, "no subagent started");
    const description = (
      llm.requests[0]!.json.tools as Array<{ function: { name: string; description: string } }>
    ).find((t) => t.function.name === "delegate_task")!.function.description;
    assert.match(description, /up to 2 items concurrently/);
    assert.deepEqual(delegateResult("c_big"), {
      error:
        "Too many tasks: 3 provided, but max_concurrent_children is 2. Either reduce the task count, split into multiple delegate_task calls, or increase delegation.max_concurrent_children in config.yaml.",
    } as unknown as ReturnType<typeof delegateResult>);
    const end = run.events.find((e) => e.type === "tool_end");
    assert.ok(end?.type === "tool_end" && end.result.isError === true);
  });

  it("cancelling the parent's turn cancels every running subagent", async () => {
    llm.enqueue({
      kind: "tool_calls",
      calls: [scriptedCall("c_two", "delegate_task", { tasks: [{ goal: "one" }, { goal: "two" }] })],
    });
    llm.respondWith((request) => (isChild(request) ? { kind: "hang" } : undefined));
    const run = runParent("");
    await llm.waitForRequests(3);
    run.controller.abort();
    assert.equal(await run.stop, "cancelled");
    const children = llm.requests.filter(isChild);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(
      children.every((r) => r.aborted),
      "each subagent's model request was aborted",
    );
    const end = run.events.find((e): e is Extract<AgentEvent, { type: "tool_end" }> => e.type === "tool_end")!;
    const { results } = JSON.parse(end.result.content) as { results: Array<Record<string, unknown>> };
    assert.deepEqual(
      results.map((r) => [r.status, r.exit_reason]),
      [
        ["interrupted", "interrupted"],
        ["interrupted", "interrupted"],
      ],
    );
    assert.match(progressText(run.events), /\[1\/2\] interrupted\n/);
  });

  it("a subagent's dangerous command asks the session's user, on the delegate_task call", async () => {
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [scriptedCall("c_del", "delegate_task", { goal: "Clean the build", toolsets: ["terminal", "file"] })],
      },
      { kind: "text", chunks: ["done"] },
    );
    llm.respondWith((request) => {
      if (!isChild(request)) return undefined;
      if (!hasToolResult(request))
        return { kind: "tool_calls", calls: [scriptedCall("k_rm", "terminal", { command: "rm -rf ./build" })] };
      return { kind: "text", chunks: ["Could not clean: the user said no."] };
    });
    const run = runParent("", new ScriptedUser(["deny"]));
    await run.stop;
    assert.deepEqual(
      run.approver.commandRequests.map((r) => [r.toolCallId, r.command]),
      [["c_del", "rm -rf ./build"]],
    );
    const child = llm.requests.filter(isChild);
    assert.deepEqual(toolNames(child[0]!), ["patch", "process", "read_file", "search_files", "terminal", "write_file"]);
    assert.match(String(child[1]!.body.messages.at(-1)!.content), /BLOCKED: User denied this command/);
    const { results } = delegateResult("c_del");
    assert.equal(results[0]!.summary, "Could not clean: the user said no.");
    assert.ok(!progressText(run.events).includes("[1/1]"), "a single task has no [i/n] prefix");
  });

  it("runs subagents on delegation.model, and reports a delegation provider that cannot run", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_m", "delegate_task", { goal: "Quick look" })] },
      { kind: "text", chunks: ["ok"] },
    );
    llm.respondWith((request) => (isChild(request) ? { kind: "text", chunks: ["Looked."] } : undefined));
    await runParent("delegation:\n  model: cheap-model\n").stop;
    assert.equal(llm.requests.find(isChild)!.body.model, "cheap-model");
    assert.equal(llm.requests[0]!.body.model, "scripted-model");

    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_p", "delegate_task", { goal: "Elsewhere" })] },
      { kind: "text", chunks: ["ok"] },
    );
    await runParent("delegation:\n  provider: openrouter\n  model: some/model\n").stop;
    const { results } = delegateResult("c_p");
    assert.equal(results[0]!.status, "error");
    assert.match(
      String(results[0]!.error),
      /^Cannot resolve delegation provider 'openrouter': No API key for OpenRouter/,
    );
  });

  it("answers a malformed call with upstream's error messages", async () => {
    const home = hermesHomeFor(temp.make(), llm.baseUrl);
    const prepared = prepareConversation(workspace, { HERMES_HOME: home, HOME: home });
    assert.ok(prepared.ok);
    const tool = createDelegateTool({ maxConcurrentChildren: 3, toolsets: ["file", "terminal"] });
    const env = { ...toolEnvironment(workspace, home), delegation: prepared.delegationHost() };
    const errorOf = async (args: Record<string, unknown>, withHost = true) => {
      const result = await runTool(tool, args, withHost ? env : toolEnvironment(workspace, home));
      assert.equal(result.isError, true);
      return (JSON.parse(result.content) as { error: string }).error;
    };
    assert.equal(await errorOf({ goal: "x" }, false), "delegate_task requires a parent agent context.");
    assert.equal(await errorOf({}), "Provide either 'goal' (single task) or 'tasks' (batch).");
    assert.equal(await errorOf({ goal: "   " }), "Provide either 'goal' (single task) or 'tasks' (batch).");
    assert.equal(await errorOf({ tasks: [{ goal: "a" }, "b"] }), "Task 1 must be an object, got string.");
    assert.equal(await errorOf({ tasks: [{ context: "no goal" }] }), "Task 0 is missing a 'goal'.");
    assert.equal(
      await errorOf({ goal: "a", toolsets: "terminal" }),
      "Task 0: 'toolsets' must be a list of toolset names.",
    );
    assert.equal(llm.requests.length, 0, "nothing was started");
    assert.match(tool.parameters.properties.toolsets!.description!, /Available toolsets: 'file', 'terminal'\./);
  });

  it("reads delegation: with upstream's defaults and rejects wrong values on their line", () => {
    const read = (text: string) => readDelegationSettings(parseYamlText("/h/config.yaml", text));
    assert.deepEqual(read(""), { maxIterations: 50, maxConcurrentChildren: 3, childTimeoutSeconds: 600, endpoint: {} });
    const custom = read(
      "delegation:\n  max_iterations: 10\n  max_concurrent_children: 5\n  child_timeout_seconds: 0\n  provider: openrouter\n  model: m\n",
    );
    assert.equal(custom.maxIterations, 10);
    assert.equal(custom.maxConcurrentChildren, 5);
    assert.equal(custom.childTimeoutSeconds, undefined, "0 turns the timeout off");
    assert.equal(custom.endpoint.provider, "openrouter");
    assert.equal(custom.endpoint.model, "m");
    assert.throws(
      () => read("delegation:\n  max_concurrent_children: many\n"),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.problem.line === 2 &&
        /max_concurrent_children must be a positive whole number/.test(e.message),
    );
    assert.throws(() => read("delegation: 3\n"), ConfigError);
  });
});

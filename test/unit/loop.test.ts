import { strict as assert } from "node:assert";
import * as z from "zod/v4";
import { BUDGET_EXHAUSTED_NOTE, Conversation } from "../../agent/loop/conversation.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import { defineTool } from "../../agent/tools/define-tool.js";
import type { Tool } from "../../agent/tools/tool.js";
import type { AgentEvent } from "../../agent/tools/turn-events.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { scriptedRuntime } from "../helpers/scripted-runtime.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const runtimeFor = (llm: ScriptedLlm) => scriptedRuntime(llm);

/** A tool that records when it ran and answers after `ms`. */
function timedTool(name: string, ms: number, log: string[], interactive = false): Tool {
  return defineTool({
    name,
    toolsets: ["test"],
    kind: "other",
    description: `test tool ${name}`,
    interactive,
    parameters: z.object({ tag: z.string() }),
    async run(args) {
      log.push(`start ${name}:${String(args.tag)}`);
      await sleep(ms);
      log.push(`end ${name}:${String(args.tag)}`);
      return { content: `${name} done ${String(args.tag)}` };
    },
  });
}

describe("the agent loop", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => {
    await llm.close();
    temp.cleanup();
  });

  const conversation = (tools: Tool[], maxIterations = 90) =>
    new Conversation({
      runtime: runtimeFor(llm),
      systemPrompt: "system",
      openModelClient: createModelClient,
      tools,
      maxIterations,
    });

  it("runs several calls of one reply concurrently and appends results in call order", async () => {
    const log: string[] = [];
    llm.enqueue(
      {
        kind: "tool_calls",
        text: "Let me check both.",
        calls: [
          { id: "call_slow", name: "slow", argumentPieces: ['{"ta', 'g": "', 'a"}'] },
          { id: "call_fast", name: "fast", argumentPieces: ['{"tag":"b"}'] },
        ],
      },
      { kind: "text", chunks: ["All done."] },
    );
    const events: AgentEvent[] = [];
    const convo = conversation([timedTool("slow", 150, log), timedTool("fast", 10, log)]);
    const stop = await convo.runTurn(
      "go",
      new AbortController().signal,
      (e) => events.push(e),
      toolEnvironment(temp.make(), temp.make()),
    );
    assert.equal(stop, "end_turn");
    assert.deepEqual(
      log,
      ["start slow:a", "start fast:b", "end fast:b", "end slow:a"],
      "both started before either ended",
    );
    const second = llm.requests[1]!.body.messages;
    assert.deepEqual(
      second.slice(1).map((m) => [m.role, m.content, m.tool_call_id ?? null]),
      [
        ["user", "go", null],
        ["assistant", "Let me check both.", null],
        ["tool", "slow done a", "call_slow"],
        ["tool", "fast done b", "call_fast"],
      ],
    );
    assert.equal((second[2]!.tool_calls as unknown[]).length, 2);
    assert.deepEqual(
      llm.requests[0]!.body.tools!.map((t) => t.function.name),
      ["slow", "fast"],
    );
    const ends = events.filter((e) => e.type === "tool_end").map((e) => (e as { callId: string }).callId);
    assert.deepEqual(ends, ["call_fast", "call_slow"], "front ends hear each call as it finishes");
  });

  it("runs interactive tools one at a time after the others", async () => {
    const log: string[] = [];
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          { id: "c1", name: "ask", argumentPieces: ['{"tag":"q1"}'] },
          { id: "c2", name: "work", argumentPieces: ['{"tag":"w"}'] },
          { id: "c3", name: "ask", argumentPieces: ['{"tag":"q2"}'] },
        ],
      },
      { kind: "text", chunks: ["ok"] },
    );
    await conversation([timedTool("ask", 20, log, true), timedTool("work", 20, log)]).runTurn(
      "go",
      new AbortController().signal,
      () => {},
      toolEnvironment(temp.make(), temp.make()),
    );
    assert.deepEqual(log, ["start work:w", "end work:w", "start ask:q1", "end ask:q1", "start ask:q2", "end ask:q2"]);
    assert.deepEqual(
      llm.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id),
      ["c1", "c2", "c3"],
    );
  });

  it("turns invalid JSON, unknown tools and missing fields into errors the model can act on", async () => {
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          { id: "bad_json", name: "work", argumentPieces: ['{"tag": '] },
          { id: "unknown", name: "frobnicate", argumentPieces: ["{}"] },
          { id: "missing", name: "work", argumentPieces: ["{}"] },
          { id: "wrong_type", name: "work", argumentPieces: ['{"tag": 5}'] },
        ],
      },
      { kind: "text", chunks: ["fixed"] },
    );
    const stop = await conversation([timedTool("work", 1, [])]).runTurn(
      "go",
      new AbortController().signal,
      () => {},
      toolEnvironment(temp.make(), temp.make()),
    );
    assert.equal(stop, "end_turn");
    const results = llm.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    assert.match(results[0]!, /^Invalid JSON in the arguments of work: /);
    assert.match(results[1]!, /^Unknown tool 'frobnicate'\. Available tools: work\./);
    assert.equal(results[2], "Missing required argument for work: tag.");
    assert.equal(results[3], "Argument 'tag' of work must be a string.");
  });

  it("stops at the iteration budget with a summary and max_turn_requests", async () => {
    const loop = {
      kind: "tool_calls" as const,
      calls: [{ id: "again", name: "work", argumentPieces: ['{"tag":"x"}'] }],
    };
    llm.enqueue(loop, loop, { kind: "text", chunks: ["Summary: I ran work twice."] });
    const events: AgentEvent[] = [];
    const stop = await conversation([timedTool("work", 1, [])], 2).runTurn(
      "loop forever",
      new AbortController().signal,
      (e) => events.push(e),
      toolEnvironment(temp.make(), temp.make()),
    );
    assert.equal(stop, "max_turn_requests");
    assert.equal(llm.requests.length, 3);
    const last = llm.requests[2]!.body;
    assert.equal(last.tools, undefined, "the summary call offers no tools");
    assert.equal(last.messages.at(-1)!.content, BUDGET_EXHAUSTED_NOTE);
    assert.ok(events.some((e) => e.type === "text_delta" && e.text.includes("Summary")));
  });

  it("cancels a running tool at once and keeps the history valid for the next turn", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [{ id: "long", name: "slow", argumentPieces: ['{"tag":"z"}'] }] },
      { kind: "text", chunks: ["next"] },
    );
    const controller = new AbortController();
    const slowTool = defineTool({
      name: "slow",
      toolsets: ["test"],
      kind: "other",
      description: "waits for cancellation",
      parameters: z.object({}),
      run: (_args, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve({ content: "stopped", isError: true })),
        ),
    });
    const convo = conversation([slowTool]);
    const env = toolEnvironment(temp.make(), temp.make());
    const turn = convo.runTurn("go", controller.signal, () => {}, env);
    await llm.waitForRequests(1);
    await sleep(100);
    controller.abort();
    assert.equal(await turn, "cancelled");
    await convo.runTurn("again", new AbortController().signal, () => {}, env);
    const roles = llm.requests[1]!.body.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user", "assistant", "tool", "user"]);
  });
});

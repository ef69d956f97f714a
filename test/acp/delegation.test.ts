import { strict as assert } from "node:assert";
import type * as acp from "@agentclientprotocol/sdk";
import { type RecordedRequest, scriptedCall } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

type Update = acp.SessionNotification["update"];
type ToolCallUpdate = Extract<Update, { sessionUpdate: "tool_call_update" }>;

const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? "");
const isChild = (r: RecordedRequest) => systemOf(r).includes("You are a focused subagent");
const goalOf = (r: RecordedRequest) => /YOUR TASK:\n(.*)/.exec(systemOf(r))?.[1];
const textOf = (u: ToolCallUpdate) =>
  (u.content ?? []).map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")).join("");

describe("hermes-acp: delegation", () => {
  const server = useScriptedServer({ permission: "deny" });

  const updates = () => server.harness!.updates.map((u) => u.update);

  it("shows a batch as one execute tool call whose updates follow each subagent, then the results", async () => {
    server.llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          scriptedCall("c_batch", "delegate_task", {
            tasks: [{ goal: "Clean the build" }, { goal: "Read the notes" }],
          }),
        ],
      },
      { kind: "text", chunks: ["Both subagents reported back."] },
    );
    server.llm.respondWith((request) => {
      if (!isChild(request)) return undefined;
      const followUp = request.body.messages.some((m) => m.role === "tool");
      if (goalOf(request) === "Clean the build") {
        if (!followUp)
          return { kind: "tool_calls", calls: [scriptedCall("k_rm", "terminal", { command: "rm -rf ./build" })] };
        return { kind: "text", chunks: ["The user ", "declined ", "the cleanup."], chunkDelayMs: 250 };
      }
      return { kind: "text", chunks: ["Notes ", "are ", "empty."], chunkDelayMs: 250 };
    });
    const sessionId = await server.harness!.newSession(server.workspace);
    assert.equal((await server.harness!.prompt(sessionId, "delegate")).stopReason, "end_turn");

    const starts = updates().filter((u) => u.sessionUpdate === "tool_call") as Array<
      Extract<Update, { sessionUpdate: "tool_call" }>
    >;
    assert.deepEqual(
      starts.map((s) => [s.toolCallId, s.title, s.kind]),
      [["c_batch", "delegate batch (2 tasks)", "execute"]],
      "the subagents' own calls are not separate tool calls",
    );
    const callUpdates = updates().filter(
      (u): u is ToolCallUpdate => u.sessionUpdate === "tool_call_update" && u.toolCallId === "c_batch",
    );
    const live = callUpdates.filter((u) => u.status === "in_progress").map(textOf);
    assert.ok(live.length >= 1, "progress arrives while the subagents run");
    const lastLive = live.at(-1)!;
    assert.match(lastLive, /^Delegating 2 tasks\n\n1\. Clean the build\n2\. Read the notes\n/);
    assert.match(lastLive, /\[1\/2\] running: terminal rm -rf \.\/build/);
    assert.match(lastLive, /\[2\/2\] started: Read the notes/);

    assert.equal(server.permissions.length, 1);
    assert.equal(
      server.permissions[0]!.toolCall.toolCallId,
      "c_batch",
      "the subagent's question sits on the delegate_task call",
    );
    assert.equal(server.permissions[0]!.toolCall.title, "[1/2] recursive delete: rm -rf ./build");

    const end = callUpdates.at(-1)!;
    assert.equal(end.status, "completed");
    const shown = textOf(end);
    assert.match(shown, /^Delegation results: 2 tasks in [\d.]+s\n/);
    assert.match(
      shown,
      /✅ Task 1: completed \(scripted-model, [\d.]+s\)\nThe user declined the cleanup\.\nTools: terminal/,
    );
    assert.match(shown, /✅ Task 2: completed \(scripted-model, [\d.]+s\)\nNotes are empty\./);
    assert.equal(server.harness!.replyText(sessionId), "Both subagents reported back.");
  });

  it("cancelling the turn cancels the running subagents", async () => {
    server.llm.enqueue({
      kind: "tool_calls",
      calls: [scriptedCall("c_two", "delegate_task", { tasks: [{ goal: "one" }, { goal: "two" }] })],
    });
    server.llm.respondWith((request) => (isChild(request) ? { kind: "hang" } : undefined));
    const sessionId = await server.harness!.newSession(server.workspace);
    const turn = server.harness!.prompt(sessionId, "delegate and wait");
    await server.llm.waitForRequests(3);
    const started = Date.now();
    await server.harness!.agent.notify("session/cancel", { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    assert.ok(Date.now() - started < 5000, "cancel does not wait for the subagents' models");
    const children = server.llm.requests.filter(isChild);
    assert.equal(children.length, 2);
    for (let i = 0; i < 50 && !children.every((r) => r.aborted); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      children.every((r) => r.aborted),
      "each subagent's model request was aborted",
    );
    const end = updates()
      .filter((u): u is ToolCallUpdate => u.sessionUpdate === "tool_call_update" && u.toolCallId === "c_two")
      .at(-1)!;
    assert.match(textOf(end), /⚠ Task 1: interrupted[\s\S]*⚠ Task 2: interrupted/);
    assert.equal(
      server.llm.requests.filter((r) => !isChild(r)).length,
      1,
      "the parent model is not asked again after a cancel",
    );
  });
});

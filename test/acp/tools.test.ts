import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { scriptedCall } from "../fixtures/scripted-llm.js";
import { markedSleep, markedStillRunningAfter, runningWith } from "../helpers/process-alive.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

type Update = acp.SessionNotification["update"];
const call = scriptedCall;

describe("hermes-acp: tools over ACP", () => {
  let answer: string | "cancel" = "allow_once";
  const server = useScriptedServer({
    shared: true,
    permission: () => answer,
    prepare: () => void (answer = "allow_once"),
  });

  const updates = (kind: Update["sessionUpdate"]) =>
    server.harness!.updates.map((u) => u.update).filter((u) => u.sessionUpdate === kind);

  it("reports a read and an edit as tool calls with locations, status and a whole-file diff", async () => {
    writeFileSync(join(server.workspace, "notes.txt"), "alpha\nbeta\n");
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_read", "read_file", { path: "notes.txt" })] },
      {
        kind: "tool_calls",
        calls: [call("c_edit", "patch", { path: "notes.txt", old_string: "beta", new_string: "gamma" })],
      },
      { kind: "text", chunks: ["Changed beta to gamma."] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    assert.equal((await server.harness!.prompt(sessionId, "fix notes")).stopReason, "end_turn");
    const starts = updates("tool_call") as Extract<Update, { sessionUpdate: "tool_call" }>[];
    assert.deepEqual(
      starts.map((s) => [s.toolCallId, s.title, s.kind, s.status]),
      [
        ["c_read", "Read notes.txt", "read", "in_progress"],
        ["c_edit", "Edit notes.txt", "edit", "in_progress"],
      ],
    );
    assert.deepEqual(starts[0]!.locations, [{ path: join(server.workspace, "notes.txt") }]);
    const ends = updates("tool_call_update") as Extract<Update, { sessionUpdate: "tool_call_update" }>[];
    assert.deepEqual(
      ends.map((e) => e.status),
      ["completed", "completed"],
    );
    const readText = (ends[0]!.content![0] as { content: { text: string } }).content.text;
    assert.match(readText, /1\|alpha\n2\|beta/);
    assert.deepEqual(ends[1]!.content![0], {
      type: "diff",
      path: join(server.workspace, "notes.txt"),
      oldText: "alpha\nbeta\n",
      newText: "alpha\ngamma\n",
    });
    assert.equal(readFileSync(join(server.workspace, "notes.txt"), "utf8"), "alpha\ngamma\n");
    const toolResult = server.llm.requests[1]!.body.messages.at(-1)!;
    assert.equal(toolResult.role, "tool");
    assert.match(String(toolResult.content), /1\|alpha/);
  });

  it("asks before a dangerous command and honours the answer; hardline commands never ask", async () => {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_rm", "terminal", { command: "rm -rf ./build" })] },
      { kind: "tool_calls", calls: [call("c_root", "terminal", { command: "rm -rf /" })] },
      { kind: "text", chunks: ["Done."] },
    );
    answer = "deny";
    const sessionId = await server.harness!.newSession(server.workspace);
    await server.harness!.prompt(sessionId, "clean up");
    assert.equal(server.permissions.length, 1);
    const asked = server.permissions[0]!;
    assert.equal(asked.toolCall.toolCallId, "c_rm");
    assert.equal(asked.toolCall.title, "recursive delete: rm -rf ./build");
    assert.deepEqual(
      asked.options.map((o) => [o.optionId, o.kind]),
      [
        ["allow_once", "allow_once"],
        ["allow_session", "allow_always"],
        ["allow_always", "allow_always"],
        ["deny", "reject_once"],
      ],
    );
    const results = server.llm.requests.slice(1).map((r) => String(r.body.messages.at(-1)!.content));
    assert.match(results[0]!, /BLOCKED: User denied this command/);
    assert.match(results[1]!, /BLOCKED \(hardline\): recursive delete of root filesystem/);
    const ends = updates("tool_call_update") as Extract<Update, { sessionUpdate: "tool_call_update" }>[];
    assert.deepEqual(
      ends.map((e) => e.status),
      ["failed", "failed"],
    );
  });

  it("streams a running command's output as tool_call_update progress before it completes", async () => {
    server.llm.enqueue(
      {
        kind: "tool_calls",
        calls: [call("c_loop", "terminal", { command: "for i in 1 2 3; do echo line$i; sleep 0.3; done" })],
      },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    await server.harness!.prompt(sessionId, "count");
    const updates = server
      .harness!.updates.map((u) => u.update)
      .filter((u) => u.sessionUpdate === "tool_call_update") as Array<
      Extract<Update, { sessionUpdate: "tool_call_update" }>
    >;
    const live = updates.filter((u) => u.status === "in_progress");
    assert.ok(live.length >= 1, "at least one live update");
    assert.match(
      (live[0]!.content![0] as { content: { text: string } }).content.text,
      /^\$ for i in 1 2 3; do echo line\$i; sleep 0\.3; done\nline1/,
    );
    assert.equal(updates.at(-1)!.status, "completed");
  });

  it("publishes the todo list as a plan", async () => {
    server.llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          call("c_todo", "todo", {
            todos: [
              { id: "1", content: "Read", status: "completed" },
              { id: "2", content: "Write", status: "in_progress" },
              { id: "3", content: "Skip", status: "cancelled" },
            ],
          }),
        ],
      },
      { kind: "text", chunks: ["Planned."] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    await server.harness!.prompt(sessionId, "plan it");
    const plan = updates("plan")[0] as Extract<Update, { sessionUpdate: "plan" }>;
    assert.deepEqual(plan.entries, [
      { content: "Read", priority: "medium", status: "completed" },
      { content: "Write", priority: "medium", status: "in_progress" },
      { content: "[cancelled] Skip", priority: "medium", status: "completed" },
    ]);
  });

  it("cancels a running `sleep 30` at once: the prompt returns cancelled and the process group is gone", async () => {
    const sleepFor = markedSleep();
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_sleep", "terminal", { command: `sleep ${sleepFor} & wait` })] },
      { kind: "text", chunks: ["after"] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    const turn = server.harness!.prompt(sessionId, "wait a while");
    for (let i = 0; i < 100 && updates("tool_call").length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 100 && runningWith(sleepFor).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(runningWith(sleepFor).length > 0, "the sleep started");
    const started = Date.now();
    await server.harness!.agent.notify("session/cancel", { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    assert.ok(Date.now() - started < 15_000, "cancel does not wait for the 30 s sleep");
    assert.equal(await markedStillRunningAfter(sleepFor), false, "the sleep is gone");
    assert.equal(
      (await server.harness!.prompt(sessionId, "still there?")).stopReason,
      "end_turn",
      "the session works after a cancel",
    );
  });
});

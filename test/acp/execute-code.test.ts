import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { scriptedCall as call } from "../fixtures/scripted-llm.js";
import { isScriptQuestion, resultSeen, runScript } from "../helpers/execute-code-run.js";
import { markedSleep, markedStillRunningAfter, runningWith } from "../helpers/process-alive.js";
import { type ScriptedServer, useScriptedServer } from "../helpers/scripted-server.js";

type Update = acp.SessionNotification["update"];
type ToolCallStart = Extract<Update, { sessionUpdate: "tool_call" }>;
type ToolCallUpdate = Extract<Update, { sessionUpdate: "tool_call_update" }>;

const updates = (server: ScriptedServer) => server.harness!.updates.map((u) => u.update);
const starts = (server: ScriptedServer) =>
  updates(server).filter((u): u is ToolCallStart => u.sessionUpdate === "tool_call");
const toolUpdates = (server: ScriptedServer) =>
  updates(server).filter((u): u is ToolCallUpdate => u.sessionUpdate === "tool_call_update");
const texts = (update: ToolCallUpdate) =>
  (update.content ?? []).flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : []));

describe("hermes-acp: execute_code", function () {
  this.timeout(60_000);
  let answer = "allow_once";
  // The script itself is asked about first (inline code the gate cannot read; a script that names a dangerous
  // command is asked about under that command's rule) and allowed; `answer` decides its calls' questions.
  const server: ScriptedServer = useScriptedServer({
    shared: true,
    permission: () => (server.permissions.length === 1 ? "allow_once" : answer),
    prepare: () => void (answer = "allow_once"),
  });

  it("runs a script that reads one file and writes another through hermes_tools, in one card", async () => {
    writeFileSync(join(server.workspace, "names.txt"), "ada\ngrace\n");
    const result = await runScript(
      server,
      [
        "# shout the names",
        "import time",
        "from hermes_tools import read_file, write_file",
        "page = read_file('names.txt')",
        "names = [line.split('|', 1)[1] for line in page['content'].splitlines()]",
        "saved = write_file('shout.txt', '\\n'.join(n.upper() for n in names) + '\\n')",
        "print('lines:', page['total_lines'], 'status:', saved['status'])",
        "time.sleep(0.6)  # long enough for the card's progress to be sent",
      ].join("\n"),
    );
    assert.equal(readFileSync(join(server.workspace, "shout.txt"), "utf8"), "ADA\nGRACE\n");
    assert.equal(result.status, "success");
    assert.equal(result.output, "lines: 2 status: ok\n");
    assert.equal(result.tool_calls_made, 2);
    // One card, titled by the script's first line: the inner calls are not cards of their own.
    assert.deepEqual(
      starts(server).map((s) => [s.toolCallId, s.title, s.kind]),
      [["c_py", "python: # shout the names", "execute"]],
    );
    const progress = toolUpdates(server).filter((u) => u.status === "in_progress");
    assert.ok(
      progress.some((u) => texts(u).some((t) => t.includes("→ read_file(") && t.includes("→ write_file("))),
      "the card's progress lists the inner calls",
    );
    const end = toolUpdates(server).find((u) => u.status === "completed");
    assert.ok(end, "the card completed");
    assert.deepEqual(end.content?.[0], {
      type: "diff",
      path: join(server.workspace, "shout.txt"),
      oldText: null,
      newText: "ADA\nGRACE\n",
    });
    assert.ok(end.locations?.some((l) => l.path === join(server.workspace, "names.txt")));
  });

  it("refuses the 51st call with upstream's error", async () => {
    writeFileSync(join(server.workspace, "a.txt"), "a\n");
    const result = await runScript(
      server,
      [
        "from hermes_tools import read_file",
        "replies = [read_file('a.txt') for _ in range(51)]",
        "print(replies[49].get('content'))",
        "print(replies[50])",
      ].join("\n"),
    );
    assert.equal(result.tool_calls_made, 50);
    assert.equal(
      result.output,
      "1|a\n{'error': 'Tool call limit reached (50). No more tool calls allowed in this execution.'}\n",
    );
  });

  it("cuts stdout over 50 KB to head and tail and saves the whole of it, naming the file", async () => {
    const result = await runScript(server, "print('START' + 'x' * 80000 + 'END')");
    const output = String(result.output);
    assert.ok(output.startsWith("STARTxxx"));
    assert.ok(output.endsWith("xxxEND\n"));
    assert.ok(output.includes("\n\n... [OUTPUT TRUNCATED - 30,009 bytes omitted out of 80,009 total] ...\n\n"));
    assert.equal(
      Buffer.byteLength(output),
      50_000 + "\n\n... [OUTPUT TRUNCATED - 30,009 bytes omitted out of 80,009 total] ...\n\n".length,
    );
    assert.equal(result.stdout_truncated, true);
    const saved = String(result.stdout_spill_path);
    assert.ok(saved.startsWith(join(server.home, "cache", "exec")));
    assert.equal(readFileSync(saved, "utf8"), `START${"x".repeat(80000)}END\n`);
    assert.match(String(result.warning), new RegExp(`FULL output saved to ${saved}`));
  });

  it("lets the model page through the saved stdout with read_file without asking", async () => {
    answer = "deny";
    let step = 0;
    server.llm.respondWith((request) => {
      step += 1;
      if (step === 1)
        return {
          kind: "tool_calls",
          calls: [call("c_py", "execute_code", { code: "for i in range(20000): print('line', i)" })],
        };
      if (step === 2) {
        const path = String(resultSeen(request).stdout_spill_path);
        return { kind: "tool_calls", calls: [call("c_read", "read_file", { path, offset: 10000, limit: 1 })] };
      }
      return { kind: "text", chunks: ["done"] };
    });
    const sessionId = await server.harness!.newSession(server.workspace);
    await server.harness!.prompt(sessionId, "count");
    assert.deepEqual(
      server.permissions.map(isScriptQuestion),
      [true],
      "only the script was asked about: the saved output is read without a question",
    );
    const last = server.llm.requests[2]!.body.messages.findLast((m) => m.role === "tool");
    assert.match(String(last?.content), /^10000\|line 9999$/m);
  });

  it("puts each inner terminal call through the gate: a dangerous command the user refuses does not run", async () => {
    answer = "deny";
    mkdirSync(join(server.workspace, "build"));
    writeFileSync(join(server.workspace, "build", "canary.txt"), "keep me\n");
    const result = await runScript(
      server,
      ["from hermes_tools import terminal", "print(terminal('rm -rf ./build'))"].join("\n"),
    );
    assert.ok(existsSync(join(server.workspace, "build", "canary.txt")), "the canary survived");
    const asked = server.permissions.map((p) => [p.toolCall.toolCallId, p.toolCall.title]);
    assert.deepEqual(asked.at(-1), ["c_py", "recursive delete: rm -rf ./build"]);
    assert.match(String(result.output), /denied|BLOCKED/i);
    assert.equal(result.status, "success");
  });

  it("kills the script's whole process group when the turn is cancelled", async () => {
    const marker = markedSleep();
    server.llm.enqueue(
      {
        kind: "tool_calls",
        calls: [call("c_py", "execute_code", { code: `import subprocess\nsubprocess.run(['sleep', '${marker}'])` })],
      },
      { kind: "text", chunks: ["after"] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    const turn = server.harness!.prompt(sessionId, "wait");
    for (let i = 0; i < 250 && runningWith(marker).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(runningWith(marker).length > 0, "the script's child started");
    const started = Date.now();
    await server.harness!.agent.notify("session/cancel", { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    assert.ok(Date.now() - started < 15_000, "cancel does not wait for the script");
    assert.equal(await markedStillRunningAfter(marker), false, "nothing the script started survives");
  });
});

describe("hermes-acp: execute_code with code_execution settings", function () {
  this.timeout(60_000);

  describe("timeout", () => {
    const server = useScriptedServer({ permission: "allow_once", config: "code_execution:\n  timeout: 2\n" });

    it("kills a script that outlives code_execution.timeout and says so", async () => {
      const marker = markedSleep();
      const result = await runScript(
        server,
        `import subprocess\nprint('before', flush=True)\nsubprocess.run(['sleep', '${marker}'])`,
      );
      assert.equal(result.status, "timeout");
      assert.equal(result.error, "Script timed out after 2s and was killed.");
      assert.equal(result.output, "before\n\n\n⏰ Script timed out after 2s and was killed.");
      assert.equal(await markedStillRunningAfter(marker), false);
    });
  });

  describe("with the sandbox off (no PID namespace to end the script's children)", () => {
    const server = useScriptedServer({
      permission: "allow_once",
      config: "code_execution:\n  timeout: 20\nterminal:\n  sandbox: off\n",
    });

    it("ends when the script exits even if a detached child keeps its pipes open", async () => {
      const marker = markedSleep();
      const started = Date.now();
      const result = await runScript(
        server,
        `import subprocess\nsubprocess.Popen(['sleep', '${marker}'], start_new_session=True)\nprint('left it running')`,
      );
      try {
        assert.equal(result.status, "success");
        assert.equal(result.output, "left it running\n");
        assert.ok(Date.now() - started < 15_000, "the turn did not wait for the detached child");
      } finally {
        for (const pid of runningWith(marker)) process.kill(pid, "SIGKILL");
      }
    });
  });

  describe("no interpreter", () => {
    const server = useScriptedServer({
      permission: "allow_once",
      config: "code_execution:\n  python: /nonexistent/bin/python3\n",
    });

    it("refuses clearly when the interpreter is missing", async () => {
      const result = await runScript(server, "print('never')");
      assert.equal(result.status, "error");
      assert.equal(result.tool_calls_made, 0);
      assert.match(String(result.error), /^execute_code needs Python 3, and code_execution\.python .*\/nonexistent/);
      assert.match(String(result.error), /use normal tool calls/);
    });
  });
});

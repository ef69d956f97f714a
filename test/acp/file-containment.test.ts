import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedCall } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

const call = scriptedCall;

/**
 * Issue 17, item 5, as an attacker would try it over ACP: the server's HOME is a temporary folder with canary files,
 * and the client denies every question. Judged by effect: canaries intact and never in what the model is sent.
 */
describe("hermes-acp: the file tools stay in the workspace", () => {
  const server = useScriptedServer({
    shared: true,
    permission: "deny",
    prepare: ({ home, workspace }) => {
      mkdirSync(join(home, ".ssh"), { recursive: true });
      writeFileSync(join(home, ".ssh", "id_rsa"), "CANARY-ssh-key\n");
      writeFileSync(join(home, ".env"), "OPENAI_API_KEY=CANARY-env-key\n");
      writeFileSync(join(home, "diary.txt"), "CANARY-diary\n");
      mkdirSync(join(workspace, ".git"));
      writeFileSync(join(workspace, ".git", "config"), "[core]\n");
      symlinkSync(home, join(workspace, "homelink"));
      symlinkSync(join(workspace, ".git"), join(workspace, "gitlink"));
      symlinkSync(join(home, ".env"), join(workspace, "notes.txt"));
    },
  });

  const toolResults = (request: number) =>
    server.llm.requests[request]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

  it("asks in accept-edits before writing through links to home or .git, and a no leaves both untouched", async () => {
    server.llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          call("w1", "write_file", { path: "homelink/.bashrc", content: "touch PWNED\n" }),
          call("w2", "write_file", { path: "gitlink/config", content: "[core]\n\tfsmonitor = touch PWNED\n" }),
        ],
      },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.agent.request("session/set_mode", { sessionId, modeId: "accept_edits" });
    await server.harness.prompt(sessionId, "go");
    assert.equal(server.permissions.length, 2, "both writes asked");
    assert.deepEqual(
      server.permissions.map((p) => /outside the workspace|inside \.git/.test(p.toolCall.title ?? "")),
      [true, true],
    );
    assert.equal(existsSync(join(server.home, ".bashrc")), false);
    assert.equal(readFileSync(join(server.workspace, ".git", "config"), "utf8"), "[core]\n");
  });

  it("never reads credentials, asks before reading outside, and search_files does not follow a link to a secret", async () => {
    server.llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          call("r1", "read_file", { path: "~/.ssh/id_rsa" }),
          call("r2", "read_file", { path: "homelink/diary.txt" }),
          call("s1", "search_files", { pattern: "CANARY" }),
        ],
      },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
    await server.harness.prompt(sessionId, "go");
    const [key, diary, search] = toolResults(1);
    assert.match(key!, /holds credentials/);
    assert.match(diary!, /1\|CANARY-diary/, "YOLO reads outside the workspace without asking");
    assert.match(search!, /^No matches/);
    assert.doesNotMatch(JSON.stringify(server.llm.requests.map((r) => r.body)), /CANARY-ssh-key|CANARY-env-key/);

    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("r3", "read_file", { path: "homelink/diary.txt" })] },
      { kind: "text", chunks: ["ok"] },
    );
    await server.harness.agent.request("session/set_mode", { sessionId, modeId: "read_only" });
    await server.harness.prompt(sessionId, "again");
    assert.equal(server.permissions.length, 1);
    assert.equal(server.permissions[0]!.toolCall.kind, "read");
    assert.match(toolResults(3).at(-1)!, /^Read denied by the user/);
  });

  it("refuses four named pipes read in parallel at once, and the server keeps serving", async function () {
    if (process.platform === "win32") this.skip();
    execFileSync(
      "mkfifo",
      ["p1", "p2", "p3", "p4"].map((p) => join(server.workspace, p)),
    );
    server.llm.enqueue(
      { kind: "tool_calls", calls: ["p1", "p2", "p3", "p4"].map((p) => call(p, "read_file", { path: p })) },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    const started = Date.now();
    assert.equal((await server.harness.prompt(sessionId, "read the pipes")).stopReason, "end_turn");
    assert.ok(Date.now() - started < 5000, "the turn ended without waiting on a pipe");
    for (const result of toolResults(1))
      assert.match(result, /is not a regular file \(a named pipe, socket or device\)/);
    assert.ok(await server.harness.newSession(server.workspace));
  });
});

import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { scriptedCall as call } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

/** The workspace before the turn: one file to patch, one a command edits, one it deletes. */
const BEFORE: Readonly<Record<string, string>> = {
  "patch-me.txt": "alpha\nbeta\n",
  "edit-me.txt": "one\ntwo\n",
  "delete-me.txt": "keep me\n",
  "untouched.txt": "still here\n",
};

describe("hermes-acp: checkpoints and /rollback", () => {
  let answer = "allow_once";
  const server = useScriptedServer({
    permission: () => answer,
    prepare: (s) => {
      answer = "allow_once";
      for (const [name, text] of Object.entries(BEFORE)) writeFileSync(join(s.workspace, name), text);
    },
  });

  const file = (name: string) => join(server.workspace, name);
  const read = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), "utf8") : undefined);

  /** A turn that creates a file, patches one, and runs a command that edits a third and deletes a fourth. */
  async function changingTurn(sessionId: string): Promise<acp.PromptResponse> {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_write", "write_file", { path: "new.txt", content: "brand new\n" })] },
      {
        kind: "tool_calls",
        calls: [call("c_patch", "patch", { path: "patch-me.txt", old_string: "beta", new_string: "gamma" })],
      },
      {
        kind: "tool_calls",
        calls: [call("c_run", "terminal", { command: "sed -i 's/one/uno/' edit-me.txt && rm delete-me.txt" })],
      },
      { kind: "text", chunks: ["Done."] },
    );
    const response = await server.harness.prompt(sessionId, "change things");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(read("new.txt"), "brand new\n");
    assert.equal(read("patch-me.txt"), "alpha\ngamma\n");
    assert.equal(read("edit-me.txt"), "uno\ntwo\n");
    assert.equal(read("delete-me.txt"), undefined);
    return response;
  }

  function assertRestored(): void {
    assert.equal(read("new.txt"), undefined, "the file the turn created is removed");
    for (const [name, text] of Object.entries(BEFORE)) assert.equal(read(name), text, `${name} is as before the turn`);
  }

  const command = (sessionId: string, text: string) => server.harness.replyTo(sessionId, text);

  it("puts the turn's checkpoint in _meta and /rollback 1 restores all four files once the client allows", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    const response = await changingTurn(sessionId);
    const meta = (response._meta as { hermes?: { checkpoint?: { id: string; number: number } } }).hermes?.checkpoint;
    assert.match(meta?.id ?? "", /^[0-9a-f]{40,64}$/);
    assert.equal(meta?.number, 1);
    const requestsBefore = server.llm.requests.length;

    const list = await command(sessionId, "/rollback");
    assert.match(list, /^\s+1\s+[0-9a-f]+ turn 1 .*before write_file +\(4 files changed since\)/m);
    const diff = await command(sessionId, "/rollback diff 1");
    for (const name of ["new.txt", "patch-me.txt", "edit-me.txt", "delete-me.txt"])
      assert.match(diff, new RegExp(name));
    assert.doesNotMatch(diff, /untouched/);

    const asked = server.permissions.length;
    const reply = await command(sessionId, "/rollback 1");
    assert.match(reply, /Restored 4 files/);
    assertRestored();
    const question = server.permissions[asked]!;
    assert.deepEqual(
      (question.toolCall.locations ?? []).map((l) => l.path).sort(),
      ["delete-me.txt", "edit-me.txt", "new.txt", "patch-me.txt"].map(file).sort(),
    );
    assert.equal(server.llm.requests.length, requestsBefore, "/rollback never calls the model");
  });

  it("restores nothing when the client says no", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    await changingTurn(sessionId);
    answer = "deny";
    const reply = await command(sessionId, "/rollback 1");
    assert.match(reply, /nothing was restored/);
    assert.equal(read("new.txt"), "brand new\n");
    assert.equal(read("patch-me.txt"), "alpha\ngamma\n");
    assert.equal(read("edit-me.txt"), "uno\ntwo\n");
    assert.equal(read("delete-me.txt"), undefined);
  });

  it("restores one file with /rollback N <file>", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    await changingTurn(sessionId);
    const reply = await command(sessionId, "/rollback 1 delete-me.txt");
    assert.match(reply, /Restored 1 file /);
    assert.equal(read("delete-me.txt"), BEFORE["delete-me.txt"]);
    assert.equal(read("new.txt"), "brand new\n", "other files keep the turn's changes");
  });

  it("takes no checkpoint for a turn that only reads", async () => {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_read", "read_file", { path: "patch-me.txt" })] },
      { kind: "tool_calls", calls: [call("c_ls", "terminal", { command: "ls -la && cat edit-me.txt" })] },
      { kind: "text", chunks: ["Read it."] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    const response = await server.harness.prompt(sessionId, "look around");
    assert.equal((response._meta as { hermes?: { checkpoint?: unknown } } | undefined)?.hermes?.checkpoint, undefined);
    assert.match(await command(sessionId, "/rollback"), /No checkpoints yet/);
    assert.equal(existsSync(join(server.home, "checkpoints")), false, "git was never run");
  });

  it("lists and restores a checkpoint after the server restarts", async () => {
    const first = await server.harness.newSession(server.workspace);
    await changingTurn(first);
    await server.harness.close();
    assert.deepEqual(server.harness.violations, []);
    server.harness = AcpHarness.spawn(serverEnv(server.home, DISCARDED_HOME_ENV), {
      client: acp.client({ name: "test-client" }).onRequest("session/request_permission", async ({ params }) => {
        server.permissions.push(params);
        return { outcome: { outcome: "selected", optionId: "allow_once" } };
      }),
    });
    await server.harness.initialize();
    const sessionId = await server.harness.newSession(server.workspace);
    assert.match(await command(sessionId, "/rollback"), /^\s+1\s+[0-9a-f]+ turn 1 /m);
    assert.match(await command(sessionId, "/rollback 1"), /Restored 4 files/);
    assertRestored();
  });

  it("advertises /rollback", async () => {
    await server.harness.newSession(server.workspace);
    const deadline = Date.now() + 5000;
    let names: string[] = [];
    while (Date.now() < deadline && !names.includes("rollback")) {
      const update = server.harness.updates
        .map((n) => n.update)
        .find((u) => u.sessionUpdate === "available_commands_update");
      names = update?.sessionUpdate === "available_commands_update" ? update.availableCommands.map((c) => c.name) : [];
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(names.includes("rollback"));
  });
});

describe("hermes-acp: checkpoints turned off", () => {
  const server = useScriptedServer({
    permission: "allow_once",
    config: "checkpoints:\n  enabled: false\n",
  });

  it("changes files without a checkpoint when checkpoints.enabled is false", async () => {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_write", "write_file", { path: "new.txt", content: "x\n" })] },
      { kind: "text", chunks: ["Done."] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    const response = await server.harness.prompt(sessionId, "write");
    assert.equal(readFileSync(join(server.workspace, "new.txt"), "utf8"), "x\n");
    assert.equal((response._meta as { hermes?: { checkpoint?: unknown } } | undefined)?.hermes?.checkpoint, undefined);
    await server.harness.prompt(sessionId, "/rollback");
    assert.match(server.harness.replyText(sessionId), /Checkpoints are off/);
  });
});

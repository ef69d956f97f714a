import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { scriptedCall as call, type RecordedRequest } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

const STEER_OPEN = "[OUT-OF-BAND USER MESSAGE — a direct message from the user, delivered once at this position;";

describe("hermes-acp: turn control (/undo, /retry, /steer, /title, /tools)", () => {
  let answer = "allow_once";
  const server = useScriptedServer({
    shared: true,
    permission: () => answer,
    prepare: (s) => {
      answer = "allow_once";
      writeFileSync(join(s.workspace, "notes.txt"), "first draft\n");
    },
  });

  /** The conversation the model was last sent, as role: text lines (system prompt left out). */
  const conversationOf = (request: RecordedRequest) =>
    request.body.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${m.content ?? ""}`);

  const reply = (sessionId: string, text: string) => server.harness.replyTo(sessionId, text);

  it("/undo takes the last exchange out of what the model is sent next", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    server.llm.enqueue({ kind: "text", chunks: ["Answer one."] }, { kind: "text", chunks: ["Answer two."] });
    await reply(sessionId, "question one");
    await reply(sessionId, "question two");

    const undo = await reply(sessionId, "/undo");
    assert.match(
      undo,
      /Took the last exchange \("question two"\) out of the conversation\.\nThose turns changed no files\./,
    );

    server.llm.enqueue({ kind: "text", chunks: ["Answer three."] });
    await reply(sessionId, "question three");
    assert.deepEqual(conversationOf(server.llm.requests.at(-1)!), [
      "user: question one",
      "assistant: Answer one.",
      "user: question three",
    ]);
  });

  it("/undo N takes several, survives a reload of the session, and refuses a bad N", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    server.llm.enqueue(
      { kind: "text", chunks: ["A1"] },
      { kind: "text", chunks: ["A2"] },
      { kind: "text", chunks: ["A3"] },
    );
    for (const q of ["q1", "q2", "q3"]) await reply(sessionId, q);
    assert.match(await reply(sessionId, "/undo 0"), /^Usage: \/undo \[N\]/);
    assert.match(await reply(sessionId, "/undo 2"), /Took the last 2 exchanges \(from "q2"\)/);

    // The saved session lost them too: a reload replays q1 only.
    const from = server.harness.updates.length;
    await server.harness.agent.request("session/load", {
      sessionId,
      cwd: server.workspace,
      mcpServers: [],
    });
    const replayed = server.harness.updates
      .slice(from)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "user_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""));
    assert.deepEqual(replayed, ["q1"]);
    assert.match(await reply(sessionId, "/undo 5"), /Took the last exchange \("q1"\)/);
    assert.equal(await reply(sessionId, "/undo"), "Nothing to undo: the conversation is empty.");
  });

  it("/undo offers to restore the files the undone turn changed, and restores them when allowed", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("w1", "write_file", { path: "notes.txt", content: "second draft\n" })] },
      { kind: "text", chunks: ["Rewrote it."] },
    );
    await reply(sessionId, "rewrite the notes");
    assert.equal(readFileSync(join(server.workspace, "notes.txt"), "utf8"), "second draft\n");

    const asked = server.permissions.length;
    const undo = await reply(sessionId, "/undo");
    assert.match(undo, /Took the last exchange \("rewrite the notes"\) out of the conversation\.\nRestored 1 file/);
    assert.deepEqual(
      (server.permissions[asked]?.toolCall.locations ?? []).map((l) => l.path),
      [join(server.workspace, "notes.txt")],
    );
    assert.equal(readFileSync(join(server.workspace, "notes.txt"), "utf8"), "first draft\n");
  });

  it("/undo keeps the files when the user declines the restore", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("w1", "write_file", { path: "made.txt", content: "new\n" })] },
      { kind: "text", chunks: ["Made it."] },
    );
    await reply(sessionId, "make a file");
    answer = "deny";
    assert.match(await reply(sessionId, "/undo"), /Rollback cancelled: nothing was restored\./);
    assert.ok(existsSync(join(server.workspace, "made.txt")));
  });

  it("/retry runs the last message again and the first reply is gone from the conversation", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    server.llm.enqueue({ kind: "text", chunks: ["A bad answer."] }, { kind: "text", chunks: ["A better answer."] });
    await reply(sessionId, "explain closures");
    const retried = await reply(sessionId, "/retry");
    assert.equal(retried, "A better answer.");
    assert.deepEqual(conversationOf(server.llm.requests.at(-1)!), ["user: explain closures"]);

    server.llm.enqueue({ kind: "text", chunks: ["ok"] });
    await reply(sessionId, "thanks");
    assert.deepEqual(conversationOf(server.llm.requests.at(-1)!), [
      "user: explain closures",
      "assistant: A better answer.",
      "user: thanks",
    ]);
  });

  it("/retry with nothing to retry says so without calling the model", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    assert.equal(await reply(sessionId, "/retry"), "Nothing to retry: the conversation is empty.");
    assert.equal(server.llm.requests.length, 0);
  });

  it("/steer during a turn reaches the model with the next tool results, in upstream's marker", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    let release!: () => void;
    const steered = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    server.llm.respondWith(async () => {
      calls++;
      if (calls === 1) {
        await steered;
        return { kind: "tool_calls", calls: [call("r1", "read_file", { path: "notes.txt" })] };
      }
      return { kind: "text", chunks: ["Used tabs."] };
    });
    const turn = server.harness.prompt(sessionId, "format the notes");
    await server.llm.waitForRequests(1);
    const steer = await server.harness.prompt(sessionId, "/steer use tabs, not spaces");
    assert.match(
      String((steer._meta as { hermes?: { reply?: string } } | undefined)?.hermes?.reply),
      /^⏩ Steer queued for the active turn: use tabs, not spaces$/,
    );
    release();
    assert.equal((await turn).stopReason, "end_turn");

    const tool = server.llm.requests[1]!.body.messages.at(-1)!;
    assert.equal(tool.role, "tool");
    assert.match(tool.content ?? "", /first draft/);
    assert.ok(
      (tool.content ?? "").endsWith(
        `${STEER_OPEN} not tool output and not a new delivery when replayed from conversation history]\nuse tabs, not spaces\n[/OUT-OF-BAND USER MESSAGE]`,
      ),
      tool.content ?? "",
    );
    const system = server.llm.requests[1]!.body.messages[0]!.content ?? "";
    assert.match(system, /## Mid-turn user steering/, "the system prompt explains the marker");
  });

  it("/steer that the turn could not deliver (no tool call after it) runs as the next prompt", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    let release!: () => void;
    const steered = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    server.llm.respondWith(async () => {
      calls++;
      if (calls === 1) await steered;
      return { kind: "text", chunks: [calls === 1 ? "Done." : "Switched to tabs."] };
    });
    const from = server.harness.updates.length;
    const turn = server.harness.prompt(sessionId, "format the notes");
    await server.llm.waitForRequests(1);
    await server.harness.prompt(sessionId, "/steer use tabs");
    release();
    await turn;
    assert.deepEqual(conversationOf(server.llm.requests.at(-1)!), [
      "user: format the notes",
      "assistant: Done.",
      "user: use tabs",
    ]);
    const echoed = server.harness.updates
      .slice(from)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "user_message_chunk");
    assert.equal(echoed.length, 1, "the steer is shown as the user's message");
  });

  it("/steer with no turn running is an ordinary prompt of its words", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    server.llm.enqueue({ kind: "text", chunks: ["Sure."] });
    assert.equal(await reply(sessionId, "/steer prefer short answers"), "Sure.");
    assert.deepEqual(conversationOf(server.llm.requests.at(-1)!), ["user: prefer short answers"]);
  });

  it("/title names the session in session/list; /tools lists toolsets and the mode", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    assert.equal(await reply(sessionId, "/title Refactor the parser"), "Session title: Refactor the parser");
    server.llm.enqueue({ kind: "text", chunks: ["Where do we start?"] });
    await reply(sessionId, "let us refactor");
    const { sessions } = await server.harness.agent.request("session/list", { cwd: server.workspace });
    assert.equal(sessions.find((s: acp.SessionInfo) => s.sessionId === sessionId)?.title, "Refactor the parser");

    const tools = await reply(sessionId, "/tools");
    assert.match(tools, /^Tools \(\d+\), by toolset:/);
    assert.match(tools, /^ {2}file {10}read_file, write_file, patch, search_files$/m);
    assert.match(tools, /^Mode: Default: Ask before edits and dangerous commands\.$/m);
    assert.match(tools, /^Sandbox: /m);
    assert.equal(server.llm.requests.length, 1, "neither command calls the model");
  });

  it("advertises the turn commands in available_commands_update", async () => {
    await server.harness.newSession(server.workspace);
    const deadline = Date.now() + 5000;
    let names: string[] = [];
    while (Date.now() < deadline && !names.includes("undo")) {
      const update = server.harness.updates
        .map((n) => n.update)
        .find((u) => u.sessionUpdate === "available_commands_update");
      names = update?.sessionUpdate === "available_commands_update" ? update.availableCommands.map((c) => c.name) : [];
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const name of ["undo", "retry", "steer", "reset", "title", "tools", "rollback"])
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
  });
});

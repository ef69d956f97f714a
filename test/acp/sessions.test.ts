import { strict as assert } from "node:assert";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { DISCARDED_HOME_ENV } from "../helpers/acp-harness.js";
import { ServerPool } from "../helpers/server-pool.js";
import { hermesHomeFor, TempDirs, writeTree } from "../helpers/temp-dirs.js";

const call = scriptedCall;

describe("hermes-acp: sessions that survive", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let home: string;
  let workspace: string;
  const servers = new ServerPool();

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    home = hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "", 0);
    workspace = temp.make("hermes-ws-");
    writeTree(workspace, { "notes.md": "alpha\n", "backend/AGENTS.md": "backend rules", "backend/app.py": "x = 1\n" });
  });

  afterEach(async () => {
    await servers.closeAll();
    await llm.close();
    temp.cleanup();
  });

  const start = () => servers.start(home);
  /** The test's last server on this home: its exit fold is never read (DISCARDED_HOME_ENV). */
  const startLast = () => servers.start(home, DISCARDED_HOME_ENV);

  it("loses nothing of a finished turn when the server is killed with SIGKILL, and loads it back", async () => {
    llm.enqueue(
      { kind: "tool_calls", text: "Reading.", calls: [call("c1", "read_file", { path: "backend/app.py" })] },
      { kind: "text", chunks: ["x is one."] },
      { kind: "text", chunks: ["Still x is one."] },
    );
    const first = await start();
    const sessionId = await first.newSession(workspace);
    assert.equal((await first.prompt(sessionId, "What is x in backend/app.py?")).stopReason, "end_turn");
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    assert.ok(
      readdirSync(join(home, "sessions", "journal")).length > 0,
      "the turn is in the journal, not yet compacted",
    );

    const second = await startLast();
    const listed = await second.agent.request("session/list", { cwd: workspace });
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[sessionId, "What is x in backend/app.py?"]],
    );
    await second.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    const replay = second.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);
    assert.deepEqual(replay.slice(0, 4), [
      "user_message_chunk",
      "agent_message_chunk",
      "tool_call",
      "agent_message_chunk",
    ]);
    const toolCall = second.updates.find((u) => u.update.sessionUpdate === "tool_call")!.update as {
      title: string;
      status: string;
    };
    assert.deepEqual([toolCall.title, toolCall.status], ["Read backend/app.py", "completed"]);

    await second.prompt(sessionId, "And now?");
    const sent = llm.requests[2]!.body.messages.map((m) => m.role);
    assert.deepEqual(
      sent,
      ["system", "user", "assistant", "tool", "assistant", "user"],
      "the model gets the whole saved history",
    );
    const toolResult = String(llm.requests[2]!.body.messages[3]!.content);
    assert.match(toolResult, /backend rules/, "the hint was injected in the first life");
    const lastUser = String(llm.requests[2]!.body.messages[5]!.content);
    assert.equal(lastUser, "And now?");
  });

  it("does not inject the same subdirectory hint again after a reload", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [call("c1", "read_file", { path: "backend/app.py" })] },
      { kind: "text", chunks: ["ok"] },
      { kind: "tool_calls", calls: [call("c2", "read_file", { path: "backend/app.py" })] },
      { kind: "text", chunks: ["ok again"] },
    );
    const first = await start();
    const sessionId = await first.newSession(workspace);
    await first.prompt(sessionId, "read it");
    await first.close();
    const second = await startLast();
    await second.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    await second.prompt(sessionId, "read it again");
    const lastTool = llm.requests[3]!.body.messages.filter((m) => m.role === "tool").at(-1)!;
    assert.ok(!String(lastTool.content).includes("backend rules"));
  });

  it("keeps the sessions of two servers on one HERMES_HOME writing at the same time", async () => {
    const one = await start();
    const two = await start();
    for (let i = 0; i < 6; i++) llm.enqueue({ kind: "text", chunks: [`reply ${i}`] });
    const a = await one.newSession(workspace);
    const b = await two.newSession(workspace);
    await Promise.all([
      (async () => {
        for (let i = 0; i < 3; i++) await one.prompt(a, `window one, turn ${i}`);
      })(),
      (async () => {
        for (let i = 0; i < 3; i++) await two.prompt(b, `window two, turn ${i}`);
      })(),
    ]);
    await one.close();
    const listed = await two.agent.request("session/list", { cwd: workspace });
    assert.deepEqual(
      new Set(listed.sessions.map((s) => s.sessionId)),
      new Set([a, b]),
      "each window sees the other's session",
    );
    await two.close();
    const third = await startLast();
    const again = await third.agent.request("session/list", {});
    assert.equal(again.sessions.length, 2);
    await third.agent.request("session/load", { sessionId: a, cwd: workspace, mcpServers: [] });
    const users = third.updates
      .filter((u) => u.update.sessionUpdate === "user_message_chunk")
      .map((u) => (u.update as { content: { text: string } }).content.text);
    assert.deepEqual(users, ["window one, turn 0", "window one, turn 1", "window one, turn 2"]);
  });

  it("reports a corrupted database, moves it aside, and recovers from the journals", async () => {
    llm.enqueue({ kind: "text", chunks: ["saved"] });
    const first = await start();
    const sessionId = await first.newSession(workspace);
    await first.prompt(sessionId, "remember this");
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    writeFileSync(join(home, "sessions", "sessions.sqlite"), "this is not a database, it is garbage ".repeat(50));
    const second = await startLast();
    const listed = await second.agent.request("session/list", {});
    assert.deepEqual(
      listed.sessions.map((s) => s.sessionId),
      [sessionId],
      "the journal still had the turn",
    );
    assert.match(second.stderr, /session database .* was corrupt/);
    assert.ok(
      readdirSync(join(home, "sessions")).some((f) => f.startsWith("sessions.sqlite.corrupt-")),
      "the bad file is kept aside",
    );
    llm.enqueue({ kind: "text", chunks: ["hello"] });
    const fresh = await second.newSession(workspace);
    await second.prompt(fresh, "hi");
    assert.match(
      second.replyText(fresh),
      /Session database recovered: The session database .* was corrupt/,
      "the user is told, not only the log",
    );
  });

  it("lets the model search earlier sessions with session_search", async () => {
    llm.enqueue({ kind: "text", chunks: ["We chose PostgreSQL for the ledger."] });
    const first = await start();
    const old = await first.newSession(workspace);
    await first.prompt(old, "Which database did we pick for the ledger service?");
    // Time for the fold on a loaded machine (it starts sql.js in a worker), rather than a kill after 3 s.
    await first.close(10_000);
    // Tests that delete their home skip this fold (DISCARDED_HOME_ENV); a server without that setting does it.
    assert.ok(
      existsSync(join(home, "sessions", "sessions.sqlite")),
      "a clean exit folds the journals into the database",
    );
    llm.enqueue(
      { kind: "tool_calls", calls: [call("s1", "session_search", { query: "ledger database" })] },
      { kind: "text", chunks: ["PostgreSQL, per the earlier session."] },
    );
    const second = await startLast();
    const now = await second.newSession(workspace);
    await second.prompt(now, "What did we decide about the ledger?");
    const result = JSON.parse(String(llm.requests[2]!.body.messages.at(-1)!.content)) as {
      results: Array<{ session_id: string; snippet: string }>;
    };
    assert.equal(result.results[0]!.session_id, old);
    assert.match(result.results[0]!.snippet, />>>ledger<<<|>>>database<<</);
  });

  it("refuses to load an unknown session", async () => {
    const h = await startLast();
    await assert.rejects(
      h.agent.request("session/load", { sessionId: "nope", cwd: workspace, mcpServers: [] }),
      (e: { code: number }) => e.code === -32002,
    );
  });
});

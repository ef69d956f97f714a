import { strict as assert } from "node:assert";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../fixtures/scripted-llm.js";
import { scriptedCall as call } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

/** Many editor threads on one server: each session's turn runs on its own, none waits on another's tools. */
describe("hermes-acp: sessions prompting at once", () => {
  const server = useScriptedServer({ permission: "allow_once" });

  /** The session a model request belongs to, by the prompt text its first user message carries. */
  const promptOf = (request: RecordedRequest) => String(request.body.messages.find((m) => m.role === "user")?.content);

  it("20 sessions at once: every turn completes, and a turn whose command waits does not hold the others", async function () {
    this.timeout(60_000);
    const release = join(server.workspace, "release");
    // Session 0's command waits until the test creates `release`; the 19 others run a command and answer.
    server.llm.respondWith((request) => {
      const prompt = promptOf(request);
      const sawTool = request.body.messages.some((m) => m.role === "tool");
      if (sawTool) return { kind: "text", chunks: [`done ${prompt}`] };
      const command =
        prompt === "task 0" ? "while [ ! -e release ]; do sleep 0.05; done; echo released" : `echo ${prompt}`;
      return { kind: "tool_calls", calls: [call(`c-${prompt.replace(" ", "-")}`, "terminal", { command })] };
    });
    const sessions = await Promise.all(Array.from({ length: 20 }, () => server.harness.newSession(server.workspace)));
    for (const sessionId of sessions)
      await server.harness.agent.request("session/set_mode", { sessionId, modeId: "yolo" });

    const blocked = server.harness.prompt(sessions[0]!, "task 0");
    let blockedDone = false;
    void blocked.then(() => (blockedDone = true));
    const others = await Promise.all(sessions.slice(1).map((id, i) => server.harness.prompt(id, `task ${i + 1}`)));
    assert.ok(others.every((r) => r.stopReason === "end_turn"));
    assert.equal(blockedDone, false, "session 0's command still waits while the 19 others finished");
    for (const [i, id] of sessions.slice(1).entries())
      assert.equal(server.harness.replyText(id), `done task ${i + 1}`, `session ${i + 1} got its own reply`);

    writeFileSync(release, "");
    assert.equal((await blocked).stopReason, "end_turn");
    assert.equal(server.harness.replyText(sessions[0]!), "done task 0");
    assert.ok(existsSync(release));
  });
});

import { strict as assert } from "node:assert";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { type RecordedRequest, scriptedCall } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

type Update = acp.SessionNotification["update"];

describe("hermes-acp: approvals.mode smart", () => {
  let verdict = "APPROVE";

  const isJudge = (request: RecordedRequest) =>
    String(request.body.messages[0]?.content ?? "").startsWith("You are a security reviewer");

  const server = useScriptedServer({
    shared: true,
    config: "approvals:\n  mode: smart\n",
    permission: "deny",
    prepare: ({ llm, workspace }) => {
      llm.respondWith((request) => (isJudge(request) ? { kind: "text", chunks: [verdict] } : undefined));
      mkdirSync(join(workspace, "build"));
    },
  });

  const toolEnds = () =>
    server
      .harness!.updates.map((u) => u.update)
      .filter(
        (u): u is Extract<Update, { sessionUpdate: "tool_call_update" }> =>
          u.sessionUpdate === "tool_call_update" && u.status !== undefined && u.status !== "in_progress",
      );

  it("runs a command the judge APPROVEs without a permission request", async () => {
    verdict = "APPROVE";
    server.llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_rm", "terminal", { command: "rm -rf ./build" })] },
      { kind: "text", chunks: ["Cleaned."] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    assert.equal((await server.harness!.prompt(sessionId, "clean the build")).stopReason, "end_turn");
    assert.equal(server.permissions.length, 0, "nobody was asked");
    assert.equal(existsSync(join(server.workspace, "build")), false, "the command ran");
    assert.deepEqual(
      toolEnds().map((u) => [u.toolCallId, u.status]),
      [["c_rm", "completed"]],
    );
    const judged = server.llm.requests.filter(isJudge);
    assert.equal(judged.length, 1);
    assert.equal(
      judged[0]!.body.model,
      "scripted-model",
      "the session's model judges when auxiliary.approval is not set",
    );
    assert.equal(server.harness!.replyText(sessionId), "Cleaned.");
  });

  it("after a DENY offers only Allow once and Deny, and the user's Deny blocks the command", async () => {
    verdict = "DENY";
    server.llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_rm", "terminal", { command: "rm -rf ./build" })] },
      { kind: "text", chunks: ["Left it."] },
    );
    const sessionId = await server.harness!.newSession(server.workspace);
    await server.harness!.prompt(sessionId, "clean the build");
    assert.equal(server.permissions.length, 1);
    const asked = server.permissions[0]!;
    assert.equal(asked.toolCall.toolCallId, "c_rm");
    assert.deepEqual(
      asked.options.map((o) => [o.optionId, o.name, o.kind]),
      [
        ["allow_once", "Allow once", "allow_once"],
        ["deny", "Deny", "reject_once"],
      ],
    );
    const text = (asked.toolCall.content![0] as { content: { text: string } }).content.text;
    assert.match(
      text,
      /^recursive delete\nSmart approval said DENY: allowing overrides it for this one run only\.\n\$ rm -rf \.\/build$/,
    );
    assert.equal(existsSync(join(server.workspace, "build")), true);
    const toolResult = server.llm.requests
      .filter((r) => !isJudge(r))
      .at(-1)!
      .body.messages.at(-1)!;
    assert.match(String(toolResult.content), /BLOCKED: User denied this command/);
  });
});

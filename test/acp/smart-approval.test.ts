import { strict as assert } from "node:assert";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { AcpHarness, serverEnv } from "../helpers/acp-harness.js";
import { ScriptedLlm, scriptedCall, type RecordedRequest } from "../fixtures/scripted-llm.js";
import { TempDirs, hermesHomeFor } from "../helpers/temp-dirs.js";

type Update = acp.SessionNotification["update"];

describe("hermes-acp: approvals.mode smart", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let harness: AcpHarness | undefined;
  let workspace: string;
  const permissions: acp.RequestPermissionRequest[] = [];
  let verdict = "APPROVE";

  const isJudge = (request: RecordedRequest) => String(request.body.messages[0]?.content ?? "").startsWith("You are a security reviewer");

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    llm.respondWith((request) => (isJudge(request) ? { kind: "text", chunks: [verdict] } : undefined));
    const home = hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "approvals:\n  mode: smart\n");
    workspace = temp.make("hermes-ws-");
    mkdirSync(join(workspace, "build"));
    permissions.length = 0;
    const client = acp.client({ name: "test-client" }).onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId: "deny" } };
    });
    harness = AcpHarness.spawn(serverEnv(home), { client });
    await harness.initialize();
  });

  afterEach(async () => {
    await harness?.close();
    await llm.close();
    assert.deepEqual(harness?.violations, []);
    temp.cleanup();
  });

  const toolEnds = () =>
    harness!.updates.map((u) => u.update).filter((u): u is Extract<Update, { sessionUpdate: "tool_call_update" }> => u.sessionUpdate === "tool_call_update" && u.status !== undefined && u.status !== "in_progress");

  it("runs a command the judge APPROVEs without a permission request", async () => {
    verdict = "APPROVE";
    llm.enqueue({ kind: "tool_calls", calls: [scriptedCall("c_rm", "terminal", { command: "rm -rf ./build" })] }, { kind: "text", chunks: ["Cleaned."] });
    const sessionId = await harness!.newSession(workspace);
    assert.equal((await harness!.prompt(sessionId, "clean the build")).stopReason, "end_turn");
    assert.equal(permissions.length, 0, "nobody was asked");
    assert.equal(existsSync(join(workspace, "build")), false, "the command ran");
    assert.deepEqual(toolEnds().map((u) => [u.toolCallId, u.status]), [["c_rm", "completed"]]);
    const judged = llm.requests.filter(isJudge);
    assert.equal(judged.length, 1);
    assert.equal(judged[0]!.body.model, "scripted-model", "the session's model judges when auxiliary.approval is not set");
    assert.equal(harness!.replyText(sessionId), "Cleaned.");
  });

  it("after a DENY offers only Allow once and Deny, and the user's Deny blocks the command", async () => {
    verdict = "DENY";
    llm.enqueue({ kind: "tool_calls", calls: [scriptedCall("c_rm", "terminal", { command: "rm -rf ./build" })] }, { kind: "text", chunks: ["Left it."] });
    const sessionId = await harness!.newSession(workspace);
    await harness!.prompt(sessionId, "clean the build");
    assert.equal(permissions.length, 1);
    const asked = permissions[0]!;
    assert.equal(asked.toolCall.toolCallId, "c_rm");
    assert.deepEqual(asked.options.map((o) => [o.optionId, o.name, o.kind]), [
      ["allow_once", "Allow once", "allow_once"],
      ["deny", "Deny", "reject_once"],
    ]);
    const text = (asked.toolCall.content![0] as { content: { text: string } }).content.text;
    assert.match(text, /^recursive delete\nSmart approval said DENY: allowing overrides it for this one run only\.\n\$ rm -rf \.\/build$/);
    assert.equal(existsSync(join(workspace, "build")), true);
    const toolResult = llm.requests.filter((r) => !isJudge(r)).at(-1)!.body.messages.at(-1)!;
    assert.match(String(toolResult.content), /BLOCKED: User denied this command/);
  });
});

import { strict as assert } from "node:assert";
import type * as acp from "@agentclientprotocol/sdk";
import { scriptedCall as call, type RecordedRequest } from "../fixtures/scripted-llm.js";
import type { ScriptedServer } from "./scripted-server.js";

/** The question about an execute_code script itself (the gate's inline-code rule), not about one of its calls. */
export const isScriptQuestion = (request: acp.RequestPermissionRequest | undefined): boolean =>
  /script execution via -e\/-c flag/.test(String(request?.toolCall.title ?? ""));

/** What the model got back for the execute_code call, parsed (the request after the call). */
export function resultSeen(request: RecordedRequest | undefined): Record<string, unknown> {
  const message = request?.body.messages.findLast((m) => m.role === "tool");
  assert.ok(message, "the model received a tool result");
  return JSON.parse(String(message.content)) as Record<string, unknown>;
}

/** Runs one execute_code call in a new session (in `mode` when given) and returns what the model got back. */
export async function runScript(server: ScriptedServer, code: string, mode?: string): Promise<Record<string, unknown>> {
  server.llm.enqueue(
    { kind: "tool_calls", calls: [call("c_py", "execute_code", { code })] },
    { kind: "text", chunks: ["done"] },
  );
  const sessionId = await server.harness!.newSession(server.workspace);
  if (mode) await server.harness!.agent.request("session/set_mode", { sessionId, modeId: mode });
  assert.equal((await server.harness!.prompt(sessionId, "run it")).stopReason, "end_turn");
  return resultSeen(server.llm.requests[1]);
}

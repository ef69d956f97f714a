import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { type ChatMessage, describeSkillInvocation } from "../../agent/index.js";
import { toolCallEndContent, toolCallStartView } from "../updates/tool-call-view.js";

/**
 * Replays a saved history as the updates a client would have seen live: user and agent messages, thoughts, and each
 * tool call with its result. Sent in order, before the `session/load` response, as ACP requires.
 */
export async function replayHistory(
  history: readonly ChatMessage[],
  cwd: string,
  send: (update: SessionUpdate) => Promise<void>,
): Promise<void> {
  const results = new Map<string, string>();
  for (const m of history) if (m.role === "tool") results.set(m.toolCallId, m.content);
  for (const m of history) {
    if (m.role === "user") {
      // A `/skill` turn holds the whole skill; the user sees what they typed, as upstream's transcripts show it.
      await send({
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: describeSkillInvocation(m.content) ?? m.content },
      });
    } else if (m.role === "assistant") {
      if (m.reasoning)
        await send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: m.reasoning } });
      if (m.content) await send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: m.content } });
      for (const call of m.toolCalls ?? []) {
        const args = parseArgs(call.arguments);
        const view = toolCallStartView(call.name, args, cwd);
        const output = results.get(call.id);
        await send({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: view.title,
          kind: view.kind,
          status: "completed",
          rawInput: args ?? { arguments: call.arguments },
          ...(view.locations.length > 0 ? { locations: view.locations } : {}),
          content: output === undefined ? view.content : toolCallEndContent({ content: output }),
        });
      }
    }
  }
}

function parseArgs(raw: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../agent/loop/events.js";

/** Maps one engine event to the ACP `session/update` it becomes, or undefined when ACP has no place for it. */
export function eventToUpdate(event: AgentEvent): SessionUpdate | undefined {
  switch (event.type) {
    case "text_delta":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } };
    case "thought_delta":
      return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } };
    case "error":
      // Shown as part of the reply: every ACP client renders message chunks, not every one renders notices.
      // `_meta.hermes.error` lets our own clients style it (and `chat` mode set its exit status).
      return {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `⚠️ ${event.message}` },
        _meta: { hermes: { error: true } },
      };
    case "notice":
      return {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `⚠️ ${event.title}: ${event.message}\n\n` },
        _meta: { hermes: { notice: true } },
      };
    case "usage":
      return undefined;
  }
}

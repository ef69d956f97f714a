import type { PlanEntry, SessionUpdate } from "@agentclientprotocol/sdk";
import { type AgentEvent, redactSecrets, type TodoItem } from "../../agent/index.js";
import { toolCallEndView, toolCallStartView } from "./tool-call-view.js";

/** Maps one engine event to the ACP `session/update` it becomes, or undefined when ACP has no place for it. */
export function eventToUpdate(event: AgentEvent, cwd: string): SessionUpdate | undefined {
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
        // A provider's error may quote the request's key or headers: redacted like the log (secret-redaction.ts).
        content: { type: "text", text: `⚠️ ${redactSecrets(event.message)}` },
        _meta: { hermes: { error: true } },
      };
    case "notice":
      return {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `⚠️ ${event.title}: ${redactSecrets(event.message)}\n\n` },
        _meta: { hermes: { notice: true } },
      };
    case "tool_start": {
      const view = toolCallStartView(event.name, event.args, cwd);
      return {
        sessionUpdate: "tool_call",
        toolCallId: event.callId,
        title: view.title,
        kind: view.kind,
        status: "in_progress",
        rawInput: event.args ?? { arguments: event.rawArguments },
        ...(view.locations.length > 0 ? { locations: view.locations } : {}),
        ...(view.content.length > 0 ? { content: view.content } : {}),
      };
    }
    case "tool_end":
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: event.result.isError ? "failed" : "completed",
        content: toolCallEndView(event.name, event.result),
        ...(event.result.locations?.length ? { locations: event.result.locations.map((l) => ({ ...l })) } : {}),
      };
    case "plan":
      return { sessionUpdate: "plan", entries: event.todos.map(planEntry) };
    case "tool_progress":
    case "usage":
      return undefined;
  }
}

/** Upstream's mapping: priority medium; a cancelled item shows as completed with a "[cancelled] " prefix. */
function planEntry(todo: TodoItem): PlanEntry {
  if (todo.status === "cancelled")
    return { content: `[cancelled] ${todo.content}`, priority: "medium", status: "completed" };
  return { content: todo.content, priority: "medium", status: todo.status };
}

import type { TokenUsage } from "../providers/model-client.js";
import type { TodoItem } from "./session-tool-state.js";
import type { ToolResult } from "./tool.js";

/**
 * Everything a turn reports, as one typed stream. Front ends (acp-server) map these to their wire format; the
 * loop never formats for a protocol itself. Defined beside the tool contract rather than in loop/, which emits them,
 * because a subagent's turn reports them to delegate_task through the delegation host (tools/delegation-host.ts).
 */
export type AgentEvent =
  | { readonly type: "text_delta"; readonly text: string }
  | { readonly type: "thought_delta"; readonly text: string }
  | { readonly type: "usage"; readonly usage: TokenUsage }
  /** A tool call begins; `args` is undefined when the arguments did not parse. */
  | {
      readonly type: "tool_start";
      readonly callId: string;
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>> | undefined;
      readonly rawArguments: string;
    }
  /** Output a running tool produced so far (terminal output as it arrives). */
  | { readonly type: "tool_progress"; readonly callId: string; readonly text: string }
  | { readonly type: "tool_end"; readonly callId: string; readonly name: string; readonly result: ToolResult }
  /** The session's task list changed (the todo tool). */
  | { readonly type: "plan"; readonly todos: readonly TodoItem[] }
  /** A failure the user must see (provider refused, unreachable...), worded so they can act on it. */
  | { readonly type: "error"; readonly message: string }
  /** Something the user should know that is not part of the model's reply (a truncated or blocked context file). */
  | { readonly type: "notice"; readonly title: string; readonly message: string };

export type AgentEventSink = (event: AgentEvent) => void;

/** ACP's stop reasons, which are also the engine's. */
export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

import type { DelegationSettings } from "../config/delegation-settings.js";
import type { ChatMessage } from "../providers/messages.js";
import type { TokenUsage } from "../providers/model-client.js";
import type { Tool } from "./tool.js";
import type { ToolEnvironment } from "./tool-environment.js";
import type { AgentEventSink, StopReason } from "./turn-events.js";

/** What one subagent is made of: its instructions and the tools it may use. */
export interface ChildSpec {
  /** The subagent's task prompt (goal, context, workspace), added after the base Hermes prompt. */
  readonly taskPrompt: string;
  readonly tools: readonly Tool[];
}

export type ChildOpening =
  | { readonly ok: true; readonly conversation: ChildConversation }
  /** Why no subagent can start (delegation.provider without a key, say), in words the model can pass on. */
  | { readonly ok: false; readonly problem: string };

/**
 * What delegate_task needs of a subagent's conversation: one turn on its goal, then its history and model for the
 * report. The loop's Conversation is one; naming only this keeps the host (and ToolContext, which carries it) below
 * loop/, which runs the tools.
 */
export interface ChildConversation {
  readonly runtime: { readonly model: string };
  readonly messages: readonly ChatMessage[];
  runTurn(userText: string, signal: AbortSignal, emit: AgentEventSink, env: ToolEnvironment): Promise<StopReason>;
}

/**
 * How delegate_task starts subagents. The session supplies it (it knows the configured model, fallbacks and tools);
 * tools see it as `ToolContext.delegation`. A front end without one simply has no delegation.
 */
export interface DelegationHost {
  readonly settings: DelegationSettings;
  /** The tools the parent session offers; each subagent gets a subset of them. */
  readonly parentTools: readonly Tool[];
  /** A fresh conversation (no history) on the delegation model, with its own iteration budget. */
  openChild(spec: ChildSpec): ChildOpening;
  /** Counts a subagent's model call in the session's usage, when the front end keeps totals. */
  recordUsage?(usage: TokenUsage): void;
}

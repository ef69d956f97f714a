import type { ToolEnvironment } from "../loop/tool-runner.js";
import type { Approver } from "../tools/approver.js";
import type { SessionToolState, TodoItem } from "../tools/session-tool-state.js";
import type { ToolContext } from "../tools/tool.js";

/**
 * What a subagent's tools run against: the parent's workspace (same files, same editor I/O) and the parent's user.
 * Upstream's CLI auto-denies a subagent's dangerous commands only because its worker threads cannot reach the
 * terminal prompt; an editor can always ask, so a subagent's commands and edits are approved like the parent's.
 * No hint tracker: the subdirectory hints a subagent would collect belong to the parent's conversation.
 */
export function childEnvironment(parent: ToolContext, label: string): ToolEnvironment {
  return {
    workspace: parent.workspace,
    approver: childApprover(parent.approver, parent.toolCallId, label),
    home: parent.home,
    state: childToolState(parent.state),
    ...(parent.sessions ? { sessions: parent.sessions } : {}),
    // The same smart-approval judge as the parent's, so `approvals.mode: smart` holds for subagents' commands too.
    ...(parent.judge ? { judge: parent.judge } : {}),
  };
}

/**
 * The parent's approver, with every question attached to the delegate_task call (the only call of the subagent's
 * the editor knows about) and, in a batch, saying which subagent asks.
 */
function childApprover(parent: Approver, parentCallId: string, label: string): Approver {
  const tagged = (text: string) => (label ? `${label} ${text}` : text);
  return {
    canAsk: parent.canAsk,
    approveCommand: (request, signal) => parent.approveCommand({ ...request, toolCallId: parentCallId, description: tagged(request.description) }, signal),
    approveEdit: (request, signal) => parent.approveEdit({ ...request, toolCallId: parentCallId }, signal),
    clarify: (request, signal) => parent.clarify({ ...request, toolCallId: parentCallId, question: tagged(request.question) }, signal),
  };
}

/**
 * A subagent's tool state: its own task list, but the session's mode (a switch to read-only mid-turn binds it too),
 * its session approvals (given once, for the whole session) and its process table (so closing the session stops
 * what a subagent started in the background).
 */
function childToolState(parent: SessionToolState): SessionToolState {
  return {
    todos: [] as TodoItem[],
    memoryFailuresThisTurn: 0,
    get approvedForSession() {
      return parent.approvedForSession;
    },
    get processes() {
      return parent.processes;
    },
    get mode() {
      return parent.mode;
    },
    set mode(value) {
      parent.mode = value;
    },
    get sessionId() {
      return parent.sessionId;
    },
    get settings() {
      return parent.settings;
    },
  };
}

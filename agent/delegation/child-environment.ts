import type { Approver } from "../tools/approver.js";
import type { SessionToolState, TodoItem } from "../tools/session-tool-state.js";
import type { ToolContext } from "../tools/tool.js";
import type { ToolEnvironment } from "../tools/tool-environment.js";
import type { Workspace } from "../workspace/workspace.js";

/**
 * What a subagent's tools run against: the parent's workspace (same files, same editor I/O; its commands run here,
 * see childWorkspace) and the parent's user.
 * Upstream's CLI auto-denies a subagent's dangerous commands only because its worker threads cannot reach the
 * terminal prompt; an editor can always ask, so a subagent's commands and edits are approved like the parent's.
 * No hint tracker: the subdirectory hints a subagent would collect belong to the parent's conversation.
 */
export function childEnvironment(parent: ToolContext, label: string): ToolEnvironment {
  return {
    workspace: childWorkspace(parent.workspace),
    approver: childApprover(parent.approver, parent.toolCallId, label),
    home: parent.home,
    state: childToolState(parent.state),
    ...(parent.sessions ? { sessions: parent.sessions } : {}),
    // The same smart-approval judge as the parent's, so `approvals.mode: smart` holds for subagents' commands too.
    ...(parent.judge ? { judge: parent.judge } : {}),
    ...(parent.vision ? { vision: parent.vision } : {}),
  };
}

/**
 * The parent's workspace, except that a subagent's commands name no tool call. A workspace shows a command in the
 * terminal of the call it names (an editor embeds its terminal there), but a subagent's calls are its own: the
 * editor never heard of them (only the delegate_task call is shown), so a terminal linked to one would be an orphan
 * entry and its link never cleared. Such commands run as commands outside a tool call do (on this machine); their
 * steps show on the delegate_task call as progress lines. Not the delegate_task call's id either: a batch runs
 * subagents side by side, and a terminal would replace that call's content.
 */
function childWorkspace(parent: Workspace): Workspace {
  return {
    root: parent.root,
    readTextFile: (path) => parent.readTextFile(path),
    readBytes: (path, maxBytes) => parent.readBytes(path, maxBytes),
    writeTextFile: (path, content) => parent.writeTextFile(path, content),
    deleteFile: (path) => parent.deleteFile(path),
    stat: (path) => parent.stat(path),
    readDir: (path) => parent.readDir(path),
    runCommand: ({ toolCallId: _notShown, ...spec }) => parent.runCommand(spec),
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
    approveCommand: (request, signal) =>
      parent.approveCommand({ ...request, toolCallId: parentCallId, description: tagged(request.description) }, signal),
    approveEdit: (request, signal) => parent.approveEdit({ ...request, toolCallId: parentCallId }, signal),
    approveRead: (request, signal) =>
      parent.approveRead({ ...request, toolCallId: parentCallId, tool: tagged(request.tool) }, signal),
    clarify: (request, signal) =>
      parent.clarify({ ...request, toolCallId: parentCallId, question: tagged(request.question) }, signal),
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
    get sandboxed() {
      return parent.sandboxed;
    },
    set sandboxed(value) {
      parent.sandboxed = value;
    },
    get sessionId() {
      return parent.sessionId;
    },
    get settings() {
      return parent.settings;
    },
    // A subagent's changes belong to the parent's turn: the same snapshot covers them.
    get checkpoint() {
      return parent.checkpoint;
    },
  };
}

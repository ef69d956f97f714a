import type { ChatMessage } from "../providers/messages.js";
import type { ChildOpening, DelegationHost } from "../tools/delegation-host.js";
import type { ToolContext } from "../tools/tool.js";
import type { StopReason } from "../tools/turn-events.js";
import { childEnvironment } from "./child-environment.js";
import { ChildObserver, type ToolTraceEntry } from "./child-observer.js";
import { buildChildTaskPrompt } from "./child-prompt.js";
import { childTools } from "./child-toolsets.js";

export interface ChildTask {
  readonly goal: string;
  readonly context?: string;
  readonly toolsets?: readonly string[];
}

/** One entry of upstream's `results` array, with its field names, as the parent model reads it. */
export interface ChildResult {
  task_index: number;
  status: "completed" | "failed" | "interrupted" | "timeout" | "error";
  summary: string | null;
  api_calls: number;
  duration_seconds: number;
  model?: string;
  exit_reason?: "completed" | "max_iterations" | "interrupted" | "timeout" | "error";
  tokens?: { input: number; output: number };
  tool_trace?: ToolTraceEntry[];
  error?: string;
}

export interface RunChildOptions {
  readonly host: DelegationHost;
  /** The delegate_task call's context: its signal, workspace, approver, progress. */
  readonly parent: ToolContext;
  readonly task: ChildTask;
  readonly index: number;
  readonly count: number;
}

/** Seconds since `startedMs`, to upstream's two decimals. */
export const secondsSince = (startedMs: number) => Math.round((performance.now() - startedMs) / 10) / 100;
const formatSeconds = (s: number) => `${Number.isInteger(s) ? s : s.toFixed(2)}s`;

/**
 * Runs one subagent to the end of its single turn: the goal is its user message, its instructions are its system
 * prompt. It stops when it answers, when its budget runs out, when its timeout fires, or when the parent's turn is
 * cancelled (its own AbortController follows the parent's signal). Never throws: every ending is a result entry.
 */
export async function runChild(options: RunChildOptions): Promise<ChildResult> {
  const { host, parent, task, index, count } = options;
  const started = performance.now();
  const label = count > 1 ? `[${index + 1}/${count}]` : "";
  const observer = new ChildObserver(label ? `${label} ` : "", parent.progress, host.recordUsage?.bind(host));
  const opening = openChild(host, task, parent.workspace.root);
  if (!opening.ok) {
    observer.line(`failed: ${opening.problem}`);
    return {
      task_index: index,
      status: "error",
      summary: null,
      error: opening.problem,
      api_calls: 0,
      duration_seconds: secondsSince(started),
    };
  }
  const child = opening.conversation;
  observer.line(`started: ${task.goal.length > 80 ? `${task.goal.slice(0, 77)}...` : task.goal}`);

  const controller = new AbortController();
  const followParent = () => controller.abort();
  if (parent.signal.aborted) controller.abort();
  parent.signal.addEventListener("abort", followParent, { once: true });
  const timeoutSeconds = host.settings.childTimeoutSeconds;
  let timedOut = false;
  const timer =
    timeoutSeconds === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutSeconds * 1000);

  let stop: StopReason | undefined;
  let crash: string | undefined;
  try {
    stop = await child.runTurn(task.goal, controller.signal, observer.sink, childEnvironment(parent, label));
  } catch (error) {
    crash = (error as Error).message ?? String(error);
  } finally {
    clearTimeout(timer);
    parent.signal.removeEventListener("abort", followParent);
  }

  const duration = secondsSince(started);
  // Every model call leaves one assistant message (an interrupted one too), so this counts the calls made.
  const apiCalls = child.messages.filter((m) => m.role === "assistant").length;
  const base = {
    task_index: index,
    api_calls: apiCalls,
    duration_seconds: duration,
    model: child.runtime.model,
    tokens: { ...observer.tokens },
    tool_trace: observer.trace,
  };

  if (crash !== undefined) {
    observer.line(`failed: ${crash}`);
    return { ...base, status: "error", summary: null, exit_reason: "error", error: crash };
  }
  if (timedOut) {
    const error =
      apiCalls === 0
        ? `Subagent timed out after ${formatSeconds(timeoutSeconds!)} without making any API call — the child never reached its first LLM request (prompt construction, credential resolution, or transport may be stuck).`
        : `Subagent timed out after ${formatSeconds(timeoutSeconds!)} with ${apiCalls} API call(s) completed — likely stuck on a slow API call or unresponsive network request.`;
    observer.line(`timed out after ${formatSeconds(duration)}`);
    return { ...base, status: "timeout", summary: null, exit_reason: "timeout", error };
  }
  if (stop === "cancelled") {
    observer.line("interrupted");
    return {
      ...base,
      status: "interrupted",
      summary: null,
      exit_reason: "interrupted",
      error: "Parent agent interrupted — child did not finish in time",
    };
  }
  observer.flushText();
  const summary = finalReply(child.messages);
  const exitReason = stop === "max_turn_requests" ? "max_iterations" : "completed";
  if (!summary) {
    const error = observer.lastError ?? "Subagent did not produce a response.";
    observer.line(`failed: ${error}`);
    return { ...base, status: "failed", summary: "", exit_reason: exitReason, error };
  }
  observer.line(`completed in ${formatSeconds(duration)}`);
  return { ...base, status: "completed", summary, exit_reason: exitReason };
}

/** The subagent's conversation; a failure to build it (an unreadable SOUL.md, say) is a result, not a crash. */
function openChild(host: DelegationHost, task: ChildTask, workspaceRoot: string): ChildOpening {
  try {
    return host.openChild({
      taskPrompt: buildChildTaskPrompt(task.goal, task.context, workspaceRoot),
      tools: childTools(host.parentTools, task.toolsets),
    });
  } catch (error) {
    return { ok: false, problem: `Could not start the subagent: ${(error as Error).message ?? String(error)}` };
  }
}

/** The subagent's last answer, when its turn ended on one. */
function finalReply(messages: readonly ChatMessage[]): string {
  const last = messages.at(-1);
  return last?.role === "assistant" ? last.content.trim() : "";
}

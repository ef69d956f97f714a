import * as z from "zod/v4";
import { defineTool } from "../tools/define-tool.js";
import type { ToolResult } from "../tools/tool.js";
import { DELEGATE_BLOCKED_TOOLS } from "./child-toolsets.js";
import { delegateStartText, delegateTitle, formatDelegateResult } from "./delegate-view.js";
import { type ChildTask, runChild, secondsSince } from "./run-child.js";

export interface DelegateToolOptions {
  /** `delegation.max_concurrent_children`, told to the model so it does not plan bigger batches. */
  readonly maxConcurrentChildren: number;
  /** Toolset names subagents can ask for in this session (see `availableToolsets`). */
  readonly toolsets: readonly string[];
}

/** Upstream's `tool_error`: a JSON object with one `error`. */
const failure = (error: string): ToolResult => ({ content: JSON.stringify({ error }), isError: true });

/**
 * `delegate_task`, as the Python original offers it to the model: one task (`goal`, `context`, `toolsets`) or a
 * batch (`tasks`) whose subagents all run at once. Each subagent starts with no history, works with its own budget
 * and tools in the same workspace, and only its summary comes back. The reply is upstream's JSON: `results` (one
 * entry per task, in task order: status, summary, api_calls, duration_seconds, model, exit_reason, tokens,
 * tool_trace, error) and `total_duration_seconds`.
 */
export function createDelegateTool(options: DelegateToolOptions) {
  const toolsetList = options.toolsets.map((t) => `'${t}'`).join(", ");
  const toolsets = (description: string) => z.array(z.string()).describe(description);
  return defineTool({
    name: "delegate_task",
    toolsets: ["delegation"],
    kind: "execute",
    blockedInSubagents: true,
    description: describe(options.maxConcurrentChildren),
    parameters: () =>
      z.object({
        goal: z
          .string()
          .optional()
          .describe(
            "What the subagent should accomplish. Be specific and self-contained -- the subagent knows nothing about your conversation history.",
          ),
        context: z
          .string()
          .optional()
          .describe(
            "Background information the subagent needs: file paths, error messages, project structure, constraints. The more specific you are, the better the subagent performs.",
          ),
        toolsets: toolsets(
          `Toolsets to enable for this subagent. Default: inherits your enabled toolsets. Available toolsets: ${toolsetList}. Common patterns: ['terminal', 'file'] for code work.`,
        ).optional(),
        tasks: z
          .array(
            z.object({
              goal: z.string().describe("Task goal"),
              context: z.string().optional().describe("Task-specific context"),
              toolsets: toolsets(`Toolsets for this specific task. Available: ${toolsetList}.`).optional(),
            }),
          )
          .optional()
          .describe(
            `Batch mode: tasks to run in parallel (up to ${options.maxConcurrentChildren} for this user, set via delegation.max_concurrent_children). ` +
              "Each gets its own subagent with isolated context. When provided, top-level goal/context/toolsets are ignored.",
          ),
      }),
    describe: (args) => ({ title: delegateTitle(args), locations: [], runningText: delegateStartText(args) }),
    describeResult: (result) => formatDelegateResult(result.content),
    async run(args, ctx) {
      const host = ctx.delegation;
      if (!host) return failure("delegate_task requires a parent agent context.");
      const parsed = readTasks(args, host.settings.maxConcurrentChildren);
      if (typeof parsed === "string") return failure(parsed);
      const started = performance.now();
      const results = await Promise.all(
        parsed.map((task, index) => runChild({ host, parent: ctx, task, index, count: parsed.length })),
      );
      return { content: JSON.stringify({ results, total_duration_seconds: secondsSince(started) }) };
    },
  });
}

/** The tasks to run, or what is wrong with the call (upstream's messages). */
function readTasks(args: Readonly<Record<string, unknown>>, maxChildren: number): ChildTask[] | string {
  const topToolsets = args.toolsets;
  const tasks = args.tasks;
  let list: unknown[];
  if (Array.isArray(tasks) && tasks.length > 0) {
    if (tasks.length > maxChildren) {
      return (
        `Too many tasks: ${tasks.length} provided, but max_concurrent_children is ${maxChildren}. Either reduce the task count, ` +
        "split into multiple delegate_task calls, or increase delegation.max_concurrent_children in config.yaml."
      );
    }
    list = tasks;
  } else if (typeof args.goal === "string" && args.goal.trim()) {
    list = [{ goal: args.goal, context: args.context, toolsets: topToolsets }];
  } else {
    return "Provide either 'goal' (single task) or 'tasks' (batch).";
  }
  const out: ChildTask[] = [];
  for (const [i, task] of list.entries()) {
    if (typeof task !== "object" || task === null || Array.isArray(task))
      return `Task ${i} must be an object, got ${Array.isArray(task) ? "list" : task === null ? "null" : typeof task}.`;
    const t = task as Record<string, unknown>;
    if (typeof t.goal !== "string" || !t.goal.trim()) return `Task ${i} is missing a 'goal'.`;
    if (t.context !== undefined && t.context !== null && typeof t.context !== "string")
      return `Task ${i}: 'context' must be a string.`;
    // Upstream: a task without its own toolsets takes the top-level ones.
    const toolsets = isNonEmptyList(t.toolsets) ? t.toolsets : topToolsets;
    if (toolsets !== undefined && toolsets !== null && !isStringList(toolsets))
      return `Task ${i}: 'toolsets' must be a list of toolset names.`;
    out.push({
      goal: t.goal,
      ...(typeof t.context === "string" ? { context: t.context } : {}),
      ...(isStringList(toolsets) ? { toolsets } : {}),
    });
  }
  return out;
}

const isNonEmptyList = (value: unknown): value is unknown[] => Array.isArray(value) && value.length > 0;
const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === "string");

/** Upstream's description, less what this port does not have (roles, background runs, ACP child transports). */
function describe(maxChildren: number): string {
  const blocked = DELEGATE_BLOCKED_TOOLS.join(", ");
  return (
    "Spawn one or more subagents to work on tasks in isolated contexts. Each subagent gets its own conversation and " +
    "toolset, and works in your workspace. Only the final summary is returned -- intermediate tool results never " +
    "enter your context window.\n\n" +
    "TWO MODES (one of 'goal' or 'tasks' is required):\n" +
    "1. Single task: provide 'goal' (+ optional context, toolsets)\n" +
    `2. Batch (parallel): provide 'tasks' array with up to ${maxChildren} items concurrently for this user (configured via ` +
    "delegation.max_concurrent_children in config.yaml). All run in parallel and results are returned together. " +
    "Nested delegation is OFF: every child is a leaf and cannot delegate further.\n\n" +
    "WHEN TO USE delegate_task:\n" +
    "- Reasoning-heavy subtasks (debugging, code review, research synthesis)\n" +
    "- Tasks that would flood your context with intermediate data\n" +
    "- Parallel independent workstreams (research A and B simultaneously)\n\n" +
    "WHEN NOT TO USE (use these instead):\n" +
    "- Single tool call -> just call the tool directly\n" +
    "- Tasks needing user interaction -> subagents cannot use clarify\n" +
    "- Durable long-running work that must outlive the current turn -> use terminal(background=true) instead. " +
    "delegate_task runs SYNCHRONOUSLY inside the parent turn: if the parent is interrupted (the user cancels) the child " +
    "is cancelled with status='interrupted' and its work is discarded. Children cannot continue in the background.\n\n" +
    "IMPORTANT:\n" +
    "- Subagents have NO memory of your conversation. Pass all relevant info (file paths, error messages, constraints) via the 'context' field.\n" +
    "- If the user is writing in a non-English language, or asked for output in a specific language / tone / style, say so in 'context' " +
    '(e.g. "respond in Chinese", "return output in Japanese"). Otherwise subagents default to English and their summaries will ' +
    "contaminate your final reply with the wrong language.\n" +
    '- Subagent summaries are SELF-REPORTS, not verified facts. A subagent that claims "file written" may be wrong. For operations ' +
    "with side-effects, require the subagent to return a verifiable handle (absolute path, command output) and verify it yourself " +
    "before telling the user the operation succeeded.\n" +
    `- Subagents CANNOT call: ${blocked}.\n` +
    "- Subagents share your working directory; their commands and edits need the user's approval just like yours.\n" +
    "- Results are always returned as an array, one entry per task."
  );
}

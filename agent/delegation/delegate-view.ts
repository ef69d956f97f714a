import type { DescribedArgs } from "../tools/tool.js";

// How delegate_task reads in an editor (upstream's ACP formatting): its title, the text shown while the
// subagents run, and the results as the user reads them.

/** Upstream's `_truncate_text`: keeps `limit - 100` characters and says how long the whole was. */
function truncate(text: string, limit: number): string {
  return text.length <= limit
    ? text
    : `${text.slice(0, Math.max(0, limit - 100))}\n... (${text.length} chars total, truncated)`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Upstream's title: `delegate batch (N tasks)`, `delegate: {goal ≤ 60}`, or `delegate task`. */
export function delegateTitle(args: DescribedArgs): string {
  const tasks = args?.tasks;
  if (Array.isArray(tasks) && tasks.length > 0) return `delegate batch (${tasks.length} tasks)`;
  const goal = typeof args?.goal === "string" ? args.goal : "";
  if (!goal) return "delegate task";
  return `delegate: ${goal.length > 60 ? `${goal.slice(0, 57)}...` : goal}`;
}

/** Upstream's opening text: the goal, or the numbered goals of a batch (the first 8). Live progress follows it. */
export function delegateStartText(args: DescribedArgs): string {
  const tasks = args?.tasks;
  if (Array.isArray(tasks) && tasks.length > 0) {
    const lines = [`Delegating ${tasks.length} tasks`, ""];
    for (const [i, task] of tasks.slice(0, 8).entries()) {
      if (isRecord(task)) lines.push(`${i + 1}. ${truncate(String(task.goal ?? "").trim(), 160)}`);
    }
    if (tasks.length > 8) lines.push(`... ${tasks.length - 8} more`);
    return lines.join("\n");
  }
  const goal = typeof args?.goal === "string" ? args.goal.trim() : "";
  return `Delegating task${goal ? `:\n${truncate(goal, 800)}` : ""}`;
}

const ICONS: Readonly<Record<string, string>> = {
  completed: "✅",
  failed: "✗",
  error: "✗",
  timeout: "⏱",
  interrupted: "⚠",
};

/**
 * Upstream's `_format_delegate_result`: the JSON the model gets, shown to the user as one block per task (status,
 * model, time, summary, error, the tools it used). Undefined when the result is not delegate_task's JSON.
 */
export function formatDelegateResult(content: string): string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!isRecord(data)) return undefined;
  if (data.error && !Array.isArray(data.results)) return `Delegation failed: ${String(data.error)}`;
  if (!Array.isArray(data.results)) return undefined;
  const results = data.results;
  const total = data.total_duration_seconds;
  const lines = [
    `Delegation results: ${results.length} task${results.length === 1 ? "" : "s"}${total !== undefined ? ` in ${String(total)}s` : ""}`,
  ];
  for (const item of results) {
    if (!isRecord(item)) {
      lines.push(`- ${JSON.stringify(item)}`);
      continue;
    }
    const status = String(item.status ?? "unknown");
    const index = typeof item.task_index === "number" ? String(item.task_index + 1) : "?";
    const bits = [
      item.model ? String(item.model) : "",
      item.duration_seconds !== undefined ? `${String(item.duration_seconds)}s` : "",
    ].filter((b) => b);
    lines.push("", `${ICONS[status] ?? "•"} Task ${index}: ${status}${bits.length ? ` (${bits.join(", ")})` : ""}`);
    const summary = String(item.summary ?? "").trim();
    const error = String(item.error ?? "").trim();
    if (summary) lines.push(truncate(summary, 1200));
    if (error) lines.push(`Error: ${truncate(error, 800)}`);
    if (Array.isArray(item.tool_trace) && item.tool_trace.length > 0) {
      const names = item.tool_trace.filter(isRecord).map((t) => String(t.tool ?? "?"));
      if (names.length)
        lines.push(`Tools: ${names.slice(0, 12).join(", ")}${names.length > 12 ? ` (+${names.length - 12})` : ""}`);
    }
  }
  return truncate(lines.join("\n"), 8000);
}

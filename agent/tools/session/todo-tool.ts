import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import type { TodoItem, TodoStatus } from "../session-tool-state.js";
import { toolError } from "../tool.js";

const STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "completed", "cancelled"];
const MAX_TODO_CONTENT_CHARS = 4000;
const MAX_TODO_ITEMS = 256;

interface TodoInput {
  id?: unknown;
  content?: unknown;
  status?: unknown;
}

/** Upstream's item normalisation: unknown status → pending, missing id → "?", empty content → "(no description)". */
function normalise(input: TodoInput): TodoItem {
  const status = STATUSES.includes(input.status as TodoStatus) ? (input.status as TodoStatus) : "pending";
  let content = typeof input.content === "string" && input.content.trim() ? input.content.trim() : "(no description)";
  if (content.length > MAX_TODO_CONTENT_CHARS) content = `${content.slice(0, MAX_TODO_CONTENT_CHARS)}… [truncated]`;
  const id =
    input.id === undefined || input.id === null || String(input.id).trim() === "" ? "?" : String(input.id).trim();
  return { id, content, status };
}

/** Duplicate ids in one write: the last occurrence is kept, at its own position. */
function dedupeById(items: readonly TodoItem[]): TodoItem[] {
  const lastIndex = new Map<string, number>();
  items.forEach((item, i) => lastIndex.set(item.id, i));
  return items.filter((item, i) => lastIndex.get(item.id) === i);
}

function merge(current: readonly TodoItem[], updates: readonly TodoInput[]): TodoItem[] {
  const result = [...current];
  for (const update of updates) {
    const id = update.id === undefined || update.id === null ? undefined : String(update.id).trim();
    const at = id === undefined ? -1 : result.findIndex((t) => t.id === id);
    if (at < 0) {
      result.push(normalise(update));
      continue;
    }
    const existing = result[at]!;
    const content =
      typeof update.content === "string" && update.content.trim()
        ? normalise({ ...update, id }).content
        : existing.content;
    const status = STATUSES.includes(update.status as TodoStatus) ? (update.status as TodoStatus) : existing.status;
    result[at] = { id: existing.id, content, status };
  }
  return result;
}

function summary(todos: readonly TodoItem[]) {
  const count = (status: TodoStatus) => todos.filter((t) => t.status === status).length;
  return {
    total: todos.length,
    pending: count("pending"),
    in_progress: count("in_progress"),
    completed: count("completed"),
    cancelled: count("cancelled"),
  };
}

export const todoTool = defineTool({
  name: "todo",
  toolsets: ["todo"],
  kind: "other",
  description:
    "Read or write your task list for this session. Use it for work with several steps: write the steps, mark one " +
    "in_progress at a time, mark each completed as soon as it is done. Call with no todos to read the list. " +
    "merge=false (default) replaces the list; merge=true updates items by id and appends new ones.",
  parameters: () =>
    z.object({
      todos: z
        .array(z.object({ id: z.string(), content: z.string(), status: z.enum(STATUSES) }))
        .optional()
        .describe("Items {id, content, status}; status is pending, in_progress, completed or cancelled."),
      merge: z.boolean().optional().describe("Update by id and append, instead of replacing the whole list."),
    }),
  describe: (args) => {
    const todos = args?.todos;
    const title = Array.isArray(todos)
      ? `Update plan (${todos.length} item${todos.length === 1 ? "" : "s"})`
      : "Read plan";
    return { title, locations: [] };
  },
  async run(args, ctx) {
    if (args.todos !== undefined && args.todos !== null) {
      if (!Array.isArray(args.todos)) return toolError("todos must be an array of {id, content, status}.");
      const inputs = (args.todos as unknown[]).filter((t): t is TodoInput => typeof t === "object" && t !== null);
      const next = args.merge === true ? merge(ctx.state.todos, inputs) : inputs.map(normalise);
      ctx.state.todos = dedupeById(next).slice(0, MAX_TODO_ITEMS);
    }
    const todos = ctx.state.todos;
    return { content: JSON.stringify({ todos, summary: summary(todos) }), plan: todos };
  },
});

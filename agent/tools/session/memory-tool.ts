import { firstThreatMessage } from "../../security/threat-scanner.js";
import { withFileLock, writeFileAtomic } from "../../store/memory-file-lock.js";
import { ENTRY_DELIMITER, memoryFilePath, memoryUsage, readMemoryEntries, type MemoryTarget } from "../../store/memory-entries.js";
import type { Tool, ToolContext, ToolResult } from "../tool.js";

const MAX_CONSOLIDATION_FAILURES_PER_TURN = 3;
const n = (value: number) => value.toLocaleString("en-US");
const preview = (entry: string) => (entry.length > 80 ? `${entry.slice(0, 80)}...` : entry);

interface Budget {
  readonly target: MemoryTarget;
  readonly limit: number;
}

function usageText(entries: readonly string[], limit: number): string {
  const used = memoryUsage(entries);
  return `${Math.min(100, Math.floor((used / limit) * 100))}% — ${n(used)}/${n(limit)} chars`;
}

function success(budget: Budget, entries: readonly string[], message: string): ToolResult {
  return {
    content: JSON.stringify({
      success: true,
      done: true,
      target: budget.target,
      usage: usageText(entries, budget.limit),
      entry_count: entries.length,
      message,
      note: "Write saved. This update is complete — do not repeat it.",
    }),
  };
}

function failure(ctx: ToolContext, error: string, extra: Record<string, unknown> = {}): ToolResult {
  ctx.state.memoryFailuresThisTurn++;
  if (ctx.state.memoryFailuresThisTurn > MAX_CONSOLIDATION_FAILURES_PER_TURN) {
    return {
      content: JSON.stringify({
        success: false,
        done: true,
        error: `Memory consolidation failed ${ctx.state.memoryFailuresThisTurn} times this turn. Stop retrying memory calls — finish the user's task and mention that memory is full.`,
      }),
      isError: true,
    };
  }
  return { content: JSON.stringify({ success: false, error, ...extra }), isError: true };
}

/** Entries containing `oldText`: one entry, none, or an ambiguity (identical duplicates count as one). */
function findEntry(entries: readonly string[], oldText: string): { index: number } | { none: true } | { many: string[] } {
  const hits = entries.map((e, i) => [e, i] as const).filter(([e]) => e.includes(oldText));
  const distinct = [...new Set(hits.map(([e]) => e))];
  if (distinct.length === 0) return { none: true };
  if (distinct.length > 1) return { many: distinct.map(preview) };
  return { index: hits[0]![1] };
}

export const memoryTool: Tool = {
  name: "memory",
  description:
    "Your persistent memory across sessions, shown to you at the start of every session. target 'memory' holds " +
    "your notes (facts about projects, conventions, lessons learned); target 'user' holds who the user is " +
    "(preferences, role, style). Actions: add (content), replace (old_text → content), remove (old_text). Keep " +
    "entries short and durable; space is limited, so consolidate rather than pile up.",
  parameters: {
    type: "object",
    properties: {
      action: { type: "string", enum: ["add", "replace", "remove"], description: "What to do." },
      target: { type: "string", description: "'memory' (default) or 'user'." },
      content: { type: "string", description: "For add and replace: the entry's text." },
      old_text: { type: "string", description: "For replace and remove: a unique part of the existing entry." },
    },
    required: ["action"],
  },
  async run(args, ctx) {
    const target = args.target === undefined || args.target === null ? "memory" : String(args.target);
    if (target !== "memory" && target !== "user") return failure(ctx, `Invalid target '${target}'. Use 'memory' or 'user'.`);
    const settings = ctx.state.settings;
    const budget: Budget = { target, limit: target === "memory" ? settings.memoryCharLimit : settings.userCharLimit };
    const file = memoryFilePath(ctx.home, target);
    const action = String(args.action);
    const content = typeof args.content === "string" ? args.content.trim() : undefined;
    const oldText = typeof args.old_text === "string" ? args.old_text.trim() : undefined;
    if (action !== "remove" && content === undefined) return failure(ctx, `Content is required for '${action}' action.`);
    if (action !== "add" && !oldText) {
      return failure(ctx, `old_text is required for '${action}' action. Retry with part of the entry's exact text.`, { current_entries: readMemoryEntries(ctx.home, target) });
    }
    if (content !== undefined && action !== "remove") {
      if (!content) return failure(ctx, "Content cannot be empty.");
      const threat = firstThreatMessage(content, "strict");
      if (threat) return failure(ctx, threat);
    }
    return withFileLock(file, () => {
      const entries = readMemoryEntries(ctx.home, target);
      const save = (next: string[], message: string) => {
        writeFileAtomic(file, next.join(ENTRY_DELIMITER));
        return success(budget, next, message);
      };
      if (action === "add") {
        if (entries.includes(content!)) return success(budget, entries, "Entry already exists (no duplicate added).");
        const next = [...entries, content!];
        const used = memoryUsage(entries);
        if (memoryUsage(next) > budget.limit) {
          return failure(
            ctx,
            `Memory at ${n(used)}/${n(budget.limit)} chars. Adding this entry (${content!.length} chars) would exceed the limit. Consolidate now: use 'replace' to merge overlapping entries into shorter ones or 'remove' stale or less important entries (see current_entries below), then retry this add — all in this turn.`,
            { current_entries: entries, usage: `${n(used)}/${n(budget.limit)}` },
          );
        }
        return save(next, "Entry added.");
      }
      const found = findEntry(entries, oldText!);
      const verb = action === "replace" ? "replace" : "remove";
      if ("none" in found) {
        return failure(ctx, `No entry matched '${oldText}'. Check current_entries below and retry with the exact text of the entry you want to ${verb}.`, { current_entries: entries });
      }
      if ("many" in found) return failure(ctx, `Multiple entries matched '${oldText}'. Be more specific.`, { matches: found.many });
      if (action === "remove") return save(entries.filter((_, i) => i !== found.index), "Entry removed.");
      const next = entries.map((e, i) => (i === found.index ? content! : e));
      if (memoryUsage(next) > budget.limit) {
        return failure(ctx, `Replacement would put memory at ${n(memoryUsage(next))}/${n(budget.limit)} chars. Shorten the new content or remove other entries first.`, { current_entries: entries });
      }
      return save(next, "Entry replaced.");
    });
  },
};

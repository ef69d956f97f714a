import * as z from "zod/v4";
import { sanitizeMemoryEntry } from "../../prompt/memory-snapshot.js";
import { firstThreatMessage } from "../../security/threat-scanner.js";
import { memoryDriftError, snapshotMemoryDrift } from "../../store/memory-drift.js";
import {
  ENTRY_DELIMITER,
  MEMORY_FILE_NAMES,
  type MemoryTarget,
  memoryFilePath,
  memoryUsage,
  readMemoryEntries,
} from "../../store/memory-entries.js";
import { withFileLock, writeFileAtomic } from "../../store/memory-file-lock.js";
import { defineTool } from "../define-tool.js";
import { str } from "../describe-call.js";
import type { ToolContext, ToolResult } from "../tool.js";
import { addEntry, applyBatch, type EditFailure, type EditOutcome, removeEntry, replaceEntry } from "./memory-edits.js";

/**
 * Failed consolidations (over budget, no match, broken batch) allowed in a row within one turn. Past it the answer
 * turns terminal, so a model stuck making room cannot burn the turn's budget and never answer the user
 * (upstream #42405). The loop resets the count at each turn; a successful write resets it too.
 */
const MAX_CONSOLIDATION_FAILURES_PER_TURN = 3;

const n = (value: number) => value.toLocaleString("en-US");

/** One memory file and its budget. */
interface Store {
  readonly target: MemoryTarget;
  readonly file: string;
  readonly limit: number;
}

function answer(payload: Readonly<Record<string, unknown>>): ToolResult {
  return payload.success === false
    ? { content: JSON.stringify(payload), isError: true }
    : { content: JSON.stringify(payload) };
}

/** Upstream's tool_error shape, for calls refused before the store is touched (these never count toward the cap). */
const refuse = (error: string) => answer({ error, success: false });

/** Upstream's terminal success: confirms the write and says not to repeat it, without echoing the entries. */
function saved(ctx: ToolContext, store: Store, entries: readonly string[], message: string): ToolResult {
  ctx.state.memoryFailuresThisTurn = 0;
  const used = memoryUsage(entries);
  const pct = store.limit > 0 ? Math.min(100, Math.floor((used / store.limit) * 100)) : 0;
  return answer({
    success: true,
    done: true,
    target: store.target,
    usage: `${pct}% — ${n(used)}/${n(store.limit)} chars`,
    entry_count: entries.length,
    message,
    note: "Write saved. This update is complete — do not repeat it.",
  });
}

/** Entries echoed to the model go through the prompt's sanitiser, so a poisoned file cannot get in this way either. */
function shown(store: Store, entries: readonly string[]): string[] {
  return entries.map((entry) => sanitizeMemoryEntry(entry, store.target).text);
}

function failed(ctx: ToolContext, store: Store, entries: readonly string[], failure: EditFailure): ToolResult {
  const payload: Record<string, unknown> = { success: false, error: failure.error };
  if (failure.showEntries) payload.current_entries = shown(store, entries);
  if (failure.showUsage) payload.usage = `${n(memoryUsage(entries))}/${n(store.limit)}`;
  if (failure.matches) payload.matches = failure.matches;
  if (!failure.consolidation) return answer(payload);
  ctx.state.memoryFailuresThisTurn++;
  if (ctx.state.memoryFailuresThisTurn <= MAX_CONSOLIDATION_FAILURES_PER_TURN) return answer(payload);
  return answer({
    success: false,
    done: true,
    error: `Memory consolidation failed ${ctx.state.memoryFailuresThisTurn} times this turn. Stop retrying memory calls — leave memory unchanged for now and continue with your reply to the user. The fact can be saved in a later turn.`,
  });
}

/** replace/remove sent without old_text: the entries to choose from and how to call again (upstream #43412). */
function missingOldText(store: Store, home: string, action: string): ToolResult {
  const entries = readMemoryEntries(home, store.target);
  return answer({
    success: false,
    error: `'${action}' needs old_text -- a short unique substring of the entry to ${action}. None was provided. Reissue the ${action} with old_text set to part of one of the current_entries below.`,
    current_entries: shown(store, entries),
    usage: `${n(memoryUsage(entries))}/${n(store.limit)}`,
  });
}

/**
 * Reads the file under its lock, applies `edit`, and writes the result when it changed. Rewrites (every action but
 * add, which only appends) first pass the drift guard, so what they would drop is never lost.
 */
function mutate(
  ctx: ToolContext,
  store: Store,
  rewrites: boolean,
  edit: (entries: readonly string[]) => EditOutcome,
): Promise<ToolResult> {
  return withFileLock(store.file, () => {
    if (rewrites) {
      const backup = snapshotMemoryDrift(store.file, store.limit);
      if (backup) return answer(memoryDriftError(MEMORY_FILE_NAMES[store.target], backup));
    }
    const entries = readMemoryEntries(ctx.home, store.target);
    const outcome = edit(entries);
    if (!outcome.ok) return failed(ctx, store, entries, outcome.failure);
    if (outcome.changed) writeFileAtomic(store.file, outcome.entries.join(ENTRY_DELIMITER));
    return saved(ctx, store, outcome.entries, outcome.message);
  });
}

const given = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

async function runBatch(ctx: ToolContext, store: Store, operations: unknown): Promise<ToolResult> {
  if (!Array.isArray(operations)) return refuse("operations must be a list of {action, content?, old_text?} objects.");
  // One poisoned operation rejects the whole batch before the file is touched.
  for (const [i, op] of operations.entries()) {
    const fields = typeof op === "object" && op !== null ? (op as Record<string, unknown>) : {};
    const content = given(fields.content);
    if ((fields.action === "add" || fields.action === "replace") && content) {
      const threat = firstThreatMessage(content, "strict");
      if (threat) return answer({ success: false, error: `Operation ${i + 1}: ${threat}` });
    }
  }
  return mutate(ctx, store, true, (entries) => applyBatch(entries, operations, store.limit));
}

export const memoryTool = defineTool({
  name: "memory",
  toolsets: ["memory"],
  kind: "other",
  blockedInSubagents: true,
  description:
    "Keep durable facts in persistent memory, which is shown to you at the start of every future session; keep " +
    "entries short and high-signal.\n\n" +
    "Make all your changes in ONE call with 'operations' (a list of {action, content?, old_text?}): the batch is " +
    "applied all or nothing and the character limit is checked only on the final result, so one call can remove or " +
    "shorten stale entries and add new ones even when an add alone would not fit. The reply confirms the write; do " +
    "not repeat it. Use the single action/content/old_text fields only for one lone change.\n\n" +
    "Save when the user states a preference, a correction or a personal detail, or you learn a stable fact about " +
    "their environment, conventions or workflow. Skip trivia, things easy to find again, task progress and " +
    "temporary to-do state. When memory is full the add is refused with the current entries: send one batch that " +
    "frees enough room and adds the new entry.\n\n" +
    "Targets: 'user' is who the user is (name, role, preferences, style); 'memory' is your own notes " +
    "(environment, conventions, tool quirks, lessons).",
  parameters: () =>
    z.object({
      action: z
        .enum(["add", "replace", "remove"])
        .optional()
        .describe("A single change: what to do. Leave out when sending 'operations'."),
      target: z
        .string()
        .optional()
        .describe("Which store: 'memory' (your notes, the default) or 'user' (the user's profile)."),
      content: z.string().optional().describe("The entry's text; needed for add and replace."),
      old_text: z
        .string()
        .optional()
        .describe("Needed for replace and remove: a short part of the existing entry that picks it out."),
      operations: z
        .array(
          z.object({
            action: z.enum(["add", "replace", "remove"]),
            content: z.string().optional().describe("Entry text for add and replace."),
            old_text: z.string().optional().describe("Part of the entry to replace or remove."),
          }),
        )
        .optional()
        .describe(
          "Several changes applied together, all or nothing, against the final character budget. Preferred for more than one change or to make room.",
        ),
    }),
  describe: (args) => {
    const operations = Array.isArray(args?.operations) ? args.operations.length : 0;
    const what = operations > 0 ? `batch (${operations} operation${operations === 1 ? "" : "s"})` : str(args?.action);
    return { title: `Memory ${what}: ${str(args?.target) || "memory"}`, locations: [] };
  },
  async run(args, ctx) {
    // Memory is written to HERMES_HOME and shown to every later session: a change, which read-only mode promises not
    // to make. Every memory call writes (add, replace, remove; reading memory needs no tool: it is in the prompt).
    if (ctx.state.mode === "read_only") {
      return refuse(
        "Read-only mode: memory is not changed in this mode. Do not retry; if the fact matters, tell the user, who can save it after switching the session's mode.",
      );
    }
    const target = args.target === undefined || args.target === null ? "memory" : String(args.target);
    if (target !== "memory" && target !== "user") return refuse(`Invalid target '${target}'. Use 'memory' or 'user'.`);
    const store: Store = {
      target,
      file: memoryFilePath(ctx.home, target),
      limit: target === "memory" ? ctx.state.settings.memoryCharLimit : ctx.state.settings.userCharLimit,
    };
    // As upstream, an empty (or otherwise falsy) `operations` is no batch: the single-change fields are read.
    const ops = args.operations;
    if (Array.isArray(ops) ? ops.length > 0 : Boolean(ops)) return runBatch(ctx, store, ops);

    const action = typeof args.action === "string" ? args.action : "";
    const rawContent = given(args.content);
    const rawOldText = given(args.old_text);
    if (action === "add" && rawContent === undefined) return refuse("Content is required for 'add' action.");
    if ((action === "replace" || action === "remove") && rawOldText === undefined)
      return missingOldText(store, ctx.home, action);
    if (action === "replace" && rawContent === undefined) return refuse("content is required for 'replace' action.");
    if (action !== "add" && action !== "replace" && action !== "remove")
      return refuse(`Unknown action '${action}'. Use: add, replace, remove`);

    const content = rawContent?.trim() ?? "";
    const oldText = rawOldText?.trim() ?? "";
    if (action !== "add" && !oldText) return answer({ success: false, error: "old_text cannot be empty." });
    if (action === "add" && !content) return answer({ success: false, error: "Content cannot be empty." });
    if (action === "replace" && !content)
      return answer({ success: false, error: "new_content cannot be empty. Use 'remove' to delete entries." });
    if (action !== "remove") {
      const threat = firstThreatMessage(content, "strict");
      if (threat) return answer({ success: false, error: threat });
    }
    if (action === "add") return mutate(ctx, store, false, (entries) => addEntry(entries, content, store.limit));
    if (action === "replace")
      return mutate(ctx, store, true, (entries) => replaceEntry(entries, oldText, content, store.limit));
    return mutate(ctx, store, true, (entries) => removeEntry(entries, oldText));
  },
});

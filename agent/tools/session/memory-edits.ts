import { memoryUsage } from "../../store/memory-entries.js";

/**
 * The memory tool's edits as pure functions over a store's entries (upstream's MemoryStore.add/replace/remove/
 * apply_batch once the file is read): the entries to write and the success message, or why not. Disk, locking,
 * threat scanning and the JSON answer are the tool's business.
 */
export type EditOutcome =
  | { readonly ok: true; readonly entries: readonly string[]; readonly message: string; readonly changed: boolean }
  | { readonly ok: false; readonly failure: EditFailure };

export interface EditFailure {
  readonly error: string;
  /**
   * Over budget, no match, a broken batch: upstream counts these toward the per-turn cap, because they are what
   * the model retries in a loop while it tries to make room.
   */
  readonly consolidation: boolean;
  /** Echo the store's entries (`current_entries`), and its `usage`, so the model can pick what to consolidate. */
  readonly showEntries: boolean;
  readonly showUsage: boolean;
  /** Previews of the entries an ambiguous old_text matched. */
  readonly matches?: readonly string[];
}

export interface BatchOperation {
  readonly action?: unknown;
  readonly content?: unknown;
  readonly old_text?: unknown;
}

const n = (value: number) => value.toLocaleString("en-US");
const preview = (entry: string) => (entry.length > 80 ? `${entry.slice(0, 80)}...` : entry);

function fail(
  error: string,
  consolidation: boolean,
  showEntries: boolean,
  showUsage: boolean,
  matches?: readonly string[],
): EditOutcome {
  return { ok: false, failure: { error, consolidation, showEntries, showUsage, ...(matches ? { matches } : {}) } };
}

type Match = { readonly index: number } | { readonly none: true } | { readonly distinct: readonly string[] };

/** Entries containing `oldText`: the first of them when they are all the same text, none, or several different. */
function findEntry(entries: readonly string[], oldText: string): Match {
  const hits = entries.flatMap((entry, index) => (entry.includes(oldText) ? [index] : []));
  if (hits.length === 0) return { none: true };
  const distinct = [...new Set(hits.map((i) => entries[i]!))];
  return distinct.length > 1 ? { distinct } : { index: hits[0]! };
}

/** `content` is stripped, non-empty and passed the threat scan. */
export function addEntry(entries: readonly string[], content: string, limit: number): EditOutcome {
  if (entries.includes(content))
    return { ok: true, entries, message: "Entry already exists (no duplicate added).", changed: false };
  const next = [...entries, content];
  if (memoryUsage(next) > limit) {
    return fail(
      `Memory at ${n(memoryUsage(entries))}/${n(limit)} chars. Adding this entry (${content.length} chars) would exceed the limit. Consolidate now: use 'replace' to merge overlapping entries into shorter ones or 'remove' stale or less important entries (see current_entries below), then retry this add — all in this turn.`,
      true,
      true,
      true,
    );
  }
  return { ok: true, entries: next, message: "Entry added.", changed: true };
}

/** `oldText` and `content` are stripped and non-empty; `content` passed the threat scan. */
export function replaceEntry(entries: readonly string[], oldText: string, content: string, limit: number): EditOutcome {
  const found = findEntry(entries, oldText);
  if ("none" in found) {
    return fail(
      `No entry matched '${oldText}'. Check current_entries below and retry with the exact text of the entry you want to replace.`,
      true,
      true,
      false,
    );
  }
  if ("distinct" in found)
    return fail(
      `Multiple entries matched '${oldText}'. Be more specific.`,
      false,
      false,
      false,
      found.distinct.map(preview),
    );
  const next = entries.map((e, i) => (i === found.index ? content : e));
  if (memoryUsage(next) > limit) {
    return fail(
      `Replacement would put memory at ${n(memoryUsage(next))}/${n(limit)} chars. Shorten the new content, or 'remove' other stale or less important entries to make room (see current_entries below), then retry — all in this turn.`,
      true,
      true,
      true,
    );
  }
  return { ok: true, entries: next, message: "Entry replaced.", changed: true };
}

/** `oldText` is stripped and non-empty. */
export function removeEntry(entries: readonly string[], oldText: string): EditOutcome {
  const found = findEntry(entries, oldText);
  if ("none" in found) {
    return fail(
      `No entry matched '${oldText}'. Check current_entries below and retry with the exact text of the entry you want to remove.`,
      true,
      true,
      false,
    );
  }
  if ("distinct" in found)
    return fail(
      `Multiple entries matched '${oldText}'. Be more specific.`,
      false,
      false,
      false,
      found.distinct.map(preview),
    );
  return { ok: true, entries: entries.filter((_, i) => i !== found.index), message: "Entry removed.", changed: true };
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/**
 * Upstream's apply_batch: every operation applied in order to a working copy, all or nothing. Only the FINAL state
 * has to fit the budget, so one call can free room and add in the same breath. An add of an entry already there is
 * skipped, not an error. Contents were threat-scanned by the caller.
 */
export function applyBatch(entries: readonly string[], operations: readonly unknown[], limit: number): EditOutcome {
  const working = [...entries];
  const batchError = (message: string) =>
    fail(`${message} No operations were applied (batch is all-or-nothing).`, true, true, true);
  for (const [i, raw] of operations.entries()) {
    const op: BatchOperation = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {};
    const action = op.action;
    const content = text(op.content);
    const oldText = text(op.old_text);
    const pos = `Operation ${i + 1} (${action === undefined || action === null || action === "" ? "unknown" : String(action)})`;
    if (action === "add") {
      if (!content) return batchError(`${pos}: content is required.`);
      if (!working.includes(content)) working.push(content);
      continue;
    }
    if (action !== "replace" && action !== "remove")
      return batchError(`${pos}: unknown action. Use add, replace, or remove.`);
    if (!oldText) return batchError(`${pos}: old_text is required.`);
    if (action === "replace" && !content)
      return batchError(`${pos}: content is required (use action='remove' to delete).`);
    const found = findEntry(working, oldText);
    if ("none" in found) return batchError(`${pos}: no entry matched '${oldText}'.`);
    if ("distinct" in found)
      return batchError(`${pos}: '${oldText}' matched multiple distinct entries -- be more specific.`);
    if (action === "replace") working[found.index] = content;
    else working.splice(found.index, 1);
  }
  const total = memoryUsage(working);
  if (total > limit) {
    return fail(
      `After applying all ${operations.length} operations, memory would be at ${n(total)}/${n(limit)} chars -- over the limit. Remove or shorten more entries in the same batch (see current_entries below), then retry.`,
      true,
      true,
      true,
    );
  }
  return { ok: true, entries: working, message: `Applied ${operations.length} operation(s).`, changed: true };
}

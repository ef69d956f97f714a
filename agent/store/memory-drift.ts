import { readFileSync, writeFileSync } from "node:fs";
import { ENTRY_DELIMITER, parseMemoryText } from "./memory-entries.js";

/**
 * Upstream's drift guard (issue #26045). Replace, remove and batch rewrite the whole memory file from its parsed
 * entries, so anything in the file that does not survive parse-and-join would be silently dropped: text a patch
 * tool, a shell append or a hand edit put there. Two signals give it away: the file does not round-trip, or one
 * "entry" is longer than the whole store may be (no entry the tool wrote can be). When either shows, the file is
 * copied to `<file>.bak.<unix seconds>` and the path of that copy is returned, so the caller refuses the write.
 * A missing, unreadable or blank file is not drift.
 */
export function snapshotMemoryDrift(file: string, charLimit: number, now: Date = new Date()): string | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const trimmed = raw.trim();
  if (!trimmed) return undefined;
  const entries = parseMemoryText(raw);
  const longest = entries.reduce((most, e) => Math.max(most, e.length), 0);
  if (trimmed === entries.join(ENTRY_DELIMITER) && longest <= charLimit) return undefined;
  const backup = `${file}.bak.${Math.floor(now.getTime() / 1000)}`;
  try {
    writeFileSync(backup, raw);
  } catch {
    return `${backup} (BACKUP FAILED — file unchanged on disk)`;
  }
  return backup;
}

/** Upstream's refusal when drift was found: what happened, where the copy is, and how to recover. */
export function memoryDriftError(fileName: string, backup: string): Record<string, unknown> {
  return {
    success: false,
    error:
      `Refusing to write ${fileName}: file on disk has content that wouldn't round-trip through the memory tool ` +
      "(likely added by the patch tool, a shell append, a manual edit, or a concurrent session). " +
      `A snapshot was saved to ${backup}. Resolve the drift first — either rewrite the file as a clean §-delimited ` +
      "list of entries, or move the extra content out — then retry. This guard exists to prevent silent data loss " +
      "(issue #26045).",
    drift_backup: backup,
    remediation:
      "Open the .bak file, integrate the missing entries into the memory tool one at a time via " +
      "memory(action=add, content=...), then remove or rewrite the original file to a clean state.",
  };
}

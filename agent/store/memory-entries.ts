import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Upstream's memory file format: entries separated by a line holding only `§`. */
export const ENTRY_DELIMITER = "\n§\n";

export type MemoryTarget = "memory" | "user";

export const MEMORY_FILE_NAMES: Readonly<Record<MemoryTarget, string>> = { memory: "MEMORY.md", user: "USER.md" };

/** Upstream's default character limits (config `memory.memory_char_limit` / `memory.user_char_limit`). */
export const DEFAULT_MEMORY_LIMITS: Readonly<Record<MemoryTarget, number>> = { memory: 2200, user: 1375 };

export function memoryFilePath(home: string, target: MemoryTarget): string {
  return join(home, "memories", MEMORY_FILE_NAMES[target]);
}

/** Reads a memory file: split on the delimiter, stripped, empties dropped, exact duplicates removed (first kept). */
export function readMemoryEntries(home: string, target: MemoryTarget): string[] {
  let text: string;
  try {
    text = readFileSync(memoryFilePath(home, target), "utf8");
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const part of text.split(ENTRY_DELIMITER)) {
    const entry = part.trim();
    if (entry && !seen.has(entry)) {
      seen.add(entry);
      entries.push(entry);
    }
  }
  return entries;
}

/** Upstream's usage measure: the length of the entries joined with the delimiter. */
export function memoryUsage(entries: readonly string[]): number {
  return entries.join(ENTRY_DELIMITER).length;
}

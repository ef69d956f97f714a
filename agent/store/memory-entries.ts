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

/** A memory file's entries as upstream parses them: split on the delimiter, stripped, empties dropped. */
export function parseMemoryText(text: string): string[] {
  return text
    .split(ENTRY_DELIMITER)
    .map((part) => part.trim())
    .filter((entry) => entry !== "");
}

/** Reads a memory file: parsed, then exact duplicates removed (first kept). A missing file has no entries. */
export function readMemoryEntries(home: string, target: MemoryTarget): string[] {
  let text: string;
  try {
    text = readFileSync(memoryFilePath(home, target), "utf8");
  } catch {
    return [];
  }
  return [...new Set(parseMemoryText(text))];
}

/** Upstream's usage measure: the length of the entries joined with the delimiter. */
export function memoryUsage(entries: readonly string[]): number {
  return entries.join(ENTRY_DELIMITER).length;
}

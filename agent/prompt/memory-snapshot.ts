import { scanWhole } from "../security/threat-scanner.js";
import { ENTRY_DELIMITER, MEMORY_FILE_NAMES, memoryUsage, readMemoryEntries, type MemoryTarget } from "../store/memory-entries.js";

const RULE = "═".repeat(46);
const TITLES: Readonly<Record<MemoryTarget, string>> = {
  memory: "MEMORY (your personal notes)",
  user: "USER PROFILE (who the user is)",
};

export interface MemoryBlock {
  readonly text: string;
  readonly entries: number;
  readonly blocked: number;
}

/**
 * The memory snapshot of the volatile layer, frozen at session start (mid-session writes do not change the prompt).
 * Each entry is scanned with the strict scope; a hit is replaced by upstream's placeholder.
 */
export function memoryBlock(home: string, target: MemoryTarget, limit: number): MemoryBlock {
  const entries = readMemoryEntries(home, target);
  if (entries.length === 0) return { text: "", entries: 0, blocked: 0 };
  const fileName = MEMORY_FILE_NAMES[target];
  let blocked = 0;
  const shown = entries.map((entry) => {
    if (entry.startsWith("[BLOCKED:")) return entry;
    // The whole entry, with look-alike letters folded: the same scanner as context files and memory writes.
    const ids = scanWhole(entry, "strict").map((f) => f.id);
    if (ids.length === 0) return entry;
    blocked++;
    return `[BLOCKED: ${fileName} entry contained threat pattern(s): ${ids.join(", ")}. Removed from system prompt; use memory(action=remove) to delete the original.]`;
  });
  const used = memoryUsage(entries);
  const pct = Math.min(100, Math.floor((used / limit) * 100));
  const header = `${TITLES[target]} [${pct}% — ${used.toLocaleString("en-US")}/${limit.toLocaleString("en-US")} chars]`;
  return { text: `${RULE}\n${header}\n${RULE}\n${shown.join(ENTRY_DELIMITER)}`, entries: entries.length, blocked };
}

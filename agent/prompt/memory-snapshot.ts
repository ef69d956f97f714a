import { scanWhole } from "../security/threat-scanner.js";
import {
  ENTRY_DELIMITER,
  MEMORY_FILE_NAMES,
  type MemoryTarget,
  memoryUsage,
  readMemoryEntries,
} from "../store/memory-entries.js";

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
 * An entry as it may enter the model's context: a strict-scope threat hit is replaced by upstream's placeholder
 * (the file keeps the original so the user can see and remove it). Used for the prompt snapshot and for the
 * entries the memory tool echoes back, so a poisoned file cannot get in through either door.
 */
export function sanitizeMemoryEntry(
  entry: string,
  target: MemoryTarget,
): { readonly text: string; readonly blocked: boolean } {
  if (entry.startsWith("[BLOCKED:")) return { text: entry, blocked: false };
  // The whole entry, with look-alike letters folded: the same scanner as context files and memory writes.
  const ids = scanWhole(entry, "strict").map((f) => f.id);
  if (ids.length === 0) return { text: entry, blocked: false };
  const fileName = MEMORY_FILE_NAMES[target];
  return {
    text: `[BLOCKED: ${fileName} entry contained threat pattern(s): ${ids.join(", ")}. Removed from system prompt; use memory(action=remove) to delete the original.]`,
    blocked: true,
  };
}

/** Upstream's header, e.g. `MEMORY (your personal notes) [`, alone: a prompt holding it has a block of that store. */
export function memoryBlockHeader(target: MemoryTarget): string {
  return `${TITLES[target]} [`;
}

/**
 * The memory snapshot of the volatile layer, frozen at session start (mid-session writes do not change the prompt
 * until a compression rebuilds it). Each entry is sanitised with the strict threat scope. A store over its limit
 * (written past the tool: by hand, by a script) is flagged, and one over twice its limit shows only its head and
 * tail, as upstream renders it, so it cannot crowd out the context window.
 */
export function memoryBlock(home: string, target: MemoryTarget, limit: number): MemoryBlock {
  const entries = readMemoryEntries(home, target);
  if (entries.length === 0) return { text: "", entries: 0, blocked: 0 };
  const shown = entries.map((entry) => sanitizeMemoryEntry(entry, target));
  const blocked = shown.filter((s) => s.blocked).length;
  const used = memoryUsage(entries);
  const pct = limit > 0 ? Math.min(100, Math.floor((used / limit) * 100)) : 0;
  const over = used > limit ? " ⚠ OVER BUDGET" : "";
  const header = `${memoryBlockHeader(target)}${pct}% — ${n(used)}/${n(limit)} chars${over}]`;
  const body = capRendered(shown.map((s) => s.text).join(ENTRY_DELIMITER), used, limit);
  return { text: `${RULE}\n${header}\n${RULE}\n${body}`, entries: entries.length, blocked };
}

const n = (value: number) => value.toLocaleString("en-US");

/** Upstream's render cap: past max(2 × limit, 4000) chars, 70% head and 20% tail with a note of what was left out. */
function capRendered(content: string, used: number, limit: number): string {
  const cap = Math.max(limit * 2, 4000);
  if (content.length <= cap) return content;
  const head = Math.floor(cap * 0.7);
  const tail = Math.floor(cap * 0.2);
  const omitted = content.length - head - tail;
  return `${content.slice(0, head)}\n\n[... ${n(omitted)} chars truncated — memory over budget (${n(used)}/${n(limit)}); consolidate via memory(action=remove/replace) ...]\n\n${content.slice(-tail)}`;
}

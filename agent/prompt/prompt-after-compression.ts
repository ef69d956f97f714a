import type { PromptSettings } from "../config/prompt-settings.js";
import type { MemoryTarget } from "../store/memory-entries.js";
import { memoryBlock, memoryBlockHeader } from "./memory-snapshot.js";

type MemorySettings = Pick<
  PromptSettings,
  "memoryEnabled" | "userProfileEnabled" | "memoryCharLimit" | "userCharLimit"
>;

/**
 * The system prompt after a compression. The provider's prompt cache is lost at that point anyway, so upstream
 * reloads memory from disk and rebuilds the prompt: what the model saved during the session finally reaches its
 * prompt. When the prompt in use already shows the memory as it now is on disk (nothing was saved, or it was
 * rebuilt since), upstream keeps it byte for byte so local backends keep their KV-cache prefix; so do we.
 * Containment is checked, not before/after equality, so a prompt that predates a write is never kept.
 */
export function systemPromptAfterCompression(
  current: string,
  home: string,
  settings: MemorySettings,
  rebuild: () => string,
): string {
  const stores: ReadonlyArray<readonly [MemoryTarget, boolean, number]> = [
    ["memory", settings.memoryEnabled, settings.memoryCharLimit],
    ["user", settings.userProfileEnabled, settings.userCharLimit],
  ];
  for (const [target, enabled, limit] of stores) {
    const block = enabled ? memoryBlock(home, target, limit).text.trim() : "";
    // A store emptied (or switched off) since must lose its block: its header alone says the prompt is stale.
    const upToDate = block ? current.includes(block) : !current.includes(memoryBlockHeader(target));
    if (!upToDate) return rebuild();
  }
  return current;
}

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { truncateContent, truncationWarning } from "../context/truncation.js";
import type { ContextFileDecision } from "./context-decision.js";
import { readGuardedFile } from "./guarded-file.js";
import { DEFAULT_AGENT_IDENTITY } from "./identity.js";

export interface Identity {
  /** SOUL.md's text (scanned, capped), or the default identity when SOUL.md is missing or empty. */
  readonly text: string;
  readonly decision?: ContextFileDecision;
  readonly warnings: readonly string[];
}

/** Seeds HERMES_HOME/SOUL.md with the default identity on first run, as upstream's ensure_hermes_home does. */
export function seedSoul(home: string): void {
  const path = join(home, "SOUL.md");
  if (existsSync(path)) return;
  try {
    writeFileSync(path, `${DEFAULT_AGENT_IDENTITY}\n`, { flag: "wx" });
  } catch (error) {
    // Another server on the same HERMES_HOME seeded it first: that is fine.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/**
 * The identity slot of the system prompt: HERMES_HOME/SOUL.md only, never a SOUL.md in the project (a cloned repo
 * must not be able to replace who the agent is). No header or wrapper text, as upstream.
 */
export function loadIdentity(home: string, maxChars: number): Identity {
  const path = join(home, "SOUL.md");
  const outcome = readGuardedFile(path, "SOUL.md", { shipped: DEFAULT_AGENT_IDENTITY });
  if (outcome.kind !== "ok") return { text: DEFAULT_AGENT_IDENTITY, warnings: [] };
  const cut = truncateContent(outcome.content, "SOUL.md", maxChars, path);
  return {
    text: cut.text,
    decision: {
      path,
      label: "SOUL.md",
      status: outcome.threats.length > 0 ? "blocked" : "loaded",
      chars: outcome.rawChars,
      injectedChars: cut.text.length,
      ...(cut.cut ? { truncated: cut.cut } : {}),
      ...(outcome.threats.length > 0 ? { threats: outcome.threats } : {}),
    },
    warnings: cut.cut ? [truncationWarning("SOUL.md", outcome.content.length, maxChars)] : [],
  };
}

import type { HintOrigin, InjectedHint } from "../context/subdirectory-hints.js";

/**
 * The context inspector's section on subdirectory hints: which folders' AGENTS.md / CLAUDE.md / .cursorrules went
 * into this session's conversation, and what brought each in, so a user wondering where an instruction came from
 * can see it (and which one the threat scanner kept out).
 */
export function formatInjectedHints(injected: readonly InjectedHint[]): string {
  const lines = ["**Subdirectory hints**", ""];
  if (injected.length === 0) {
    lines.push(
      "- none injected yet (they are added when a tool call, an attachment or a file opened in the editor reaches a subfolder with its own AGENTS.md, CLAUDE.md or .cursorrules)",
    );
  }
  for (const hint of injected) {
    const what = hint.blocked ? `BLOCKED: ${hint.file} (a [BLOCKED] notice went in instead of its content)` : hint.file;
    lines.push(`- ${what}, ${describeOrigin(hint.origin)}`);
  }
  return lines.join("\n");
}

function describeOrigin(origin: HintOrigin): string {
  if (origin === "attachment") return "for a file attached to a prompt";
  if (origin === "opened file") return "for a file opened in the editor";
  return `after a ${origin.slice("tool call (".length, -1)} tool call`;
}

/**
 * How much the agent may do without asking, chosen per session by the user (ACP modes / config option):
 * - read_only: look, never change: no edits, only commands without side effects;
 * - default: edits and dangerous commands ask first;
 * - accept_edits: edits inside the workspace (and the temp folder) go through, except sensitive paths; dangerous
 *   commands still ask;
 * - yolo: nothing asks. Hardline commands and approvals.deny rules still never run.
 */
export type SessionMode = "read_only" | "default" | "accept_edits" | "yolo";

export const SESSION_MODES: ReadonlyArray<{
  readonly id: SessionMode;
  readonly name: string;
  readonly description: string;
}> = [
  { id: "read_only", name: "Read-only", description: "Plan and explore: no edits, no commands with side effects." },
  { id: "default", name: "Default", description: "Ask before edits and dangerous commands." },
  {
    id: "accept_edits",
    name: "Accept edits",
    description: "Edits in the workspace go through; dangerous commands still ask.",
  },
  { id: "yolo", name: "YOLO", description: "Never ask. Hardline commands are still never run." },
];

export function isSessionMode(value: unknown): value is SessionMode {
  return SESSION_MODES.some((m) => m.id === value);
}

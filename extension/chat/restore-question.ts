import type { CheckpointChange } from "../acp/checkpoint-wire.js";

/** One file a restore would change, as the question names it. */
export interface RestoreFile {
  /** Relative to the workspace when inside it. */
  readonly label: string;
  readonly change: CheckpointChange;
  /** An editor holds unsaved changes to it: the restore discards them. */
  readonly dirty: boolean;
  /** Why its old content cannot be shown in the diff, if it cannot. */
  readonly hidden?: "binary" | "too large";
}

export interface RestoreQuestion {
  readonly message: string;
  readonly detail: string;
}

const EFFECT: Record<CheckpointChange, string> = {
  added: "created since, removed",
  deleted: "deleted since, brought back",
  modified: "edits undone",
};

function files(count: number): string {
  return `${count} file${count === 1 ? "" : "s"}`;
}

/** The modal's question: how many files, each with what restoring does to it, and the unsaved changes it discards. */
export function restoreQuestion(changes: readonly RestoreFile[]): RestoreQuestion {
  const lines = changes.map(
    (f) => `${f.label}: ${EFFECT[f.change]}${f.hidden ? ` (${f.hidden}, not shown in the diff)` : ""}`,
  );
  const dirty = changes.filter((f) => f.dirty).map((f) => f.label);
  if (dirty.length > 0)
    lines.push("", `Unsaved changes in ${dirty.join(", ")} are discarded: the editor shows the restored file.`);
  return { message: `Restore ${files(changes.length)} to before this turn?`, detail: lines.join("\n") };
}

/** The chat's line once the files are back; the restore is itself undoable when the server snapshotted first. */
export function restoredLine(count: number, turn: number, undoable: boolean): string {
  const undo = undoable
    ? " The files as they were just before are checkpoint 1 now: `/rollback 1` undoes the restore."
    : "";
  return `Restored ${files(count)} to before turn ${turn}.${undo}`;
}

/**
 * The server's `_hermes/checkpoint/*` extension methods as this client sees them (acp-server/handlers/
 * checkpoint-params.ts is the other side; the extension imports nothing of the server, so the shapes are repeated).
 */
export const CHECKPOINT_PREVIEW_METHOD = "_hermes/checkpoint/preview";
export const CHECKPOINT_RESTORE_METHOD = "_hermes/checkpoint/restore";

export type CheckpointChange = "added" | "deleted" | "modified";

export interface CheckpointFile {
  /** Absolute. */
  readonly path: string;
  /** What happened since the checkpoint; restoring undoes it. */
  readonly change: CheckpointChange;
  /** The text at the checkpoint; null when the file did not exist there, is binary or too large. */
  readonly before: string | null;
  readonly tooLarge?: boolean;
  readonly binary?: boolean;
}

export interface CheckpointPreview {
  readonly checkpoint: string;
  readonly files: readonly CheckpointFile[];
}

export interface CheckpointRestore {
  readonly restored: ReadonlyArray<{ readonly path: string; readonly change: CheckpointChange }>;
  /** The snapshot of the files just before the restore: restoring it undoes the restore. */
  readonly undoCheckpoint?: string;
}

/** Whether the server said in `initialize` that it has these methods (`agentCapabilities._meta.hermes.checkpoints`). */
export function offersCheckpoints(meta: unknown): boolean {
  const hermes = (meta as { hermes?: { checkpoints?: unknown } } | null | undefined)?.hermes;
  return hermes?.checkpoints === true;
}

/** The checkpoint a prompt response names (`_meta.hermes.checkpoint.id`), if any. */
export function responseCheckpoint(meta: unknown): string | undefined {
  const checkpoint = (meta as { hermes?: { checkpoint?: { id?: unknown } } } | null | undefined)?.hermes?.checkpoint;
  return typeof checkpoint?.id === "string" && checkpoint.id ? checkpoint.id : undefined;
}

import type { CheckpointStore } from "../checkpoints/checkpoint-store.js";
import type { CheckpointSettings } from "../config/checkpoint-settings.js";

export interface TurnCheckpointOptions {
  readonly settings: CheckpointSettings;
  /** The session's working directory: the folder snapshotted and restored. */
  readonly workingDir: string;
  readonly hermesHome: string;
  readonly sessionId: string;
  /** Where a failure is logged (every time); the user hears of it once per session through the turn's notice. */
  readonly log?: (message: string) => void;
}

/** What a turn tells the user about a snapshot that failed (the front end shows it as a notice). */
export type CheckpointNotice = (title: string, message: string) => void;

/**
 * "Checkpoint before change" for one session: tools that may change the workspace (write_file, patch, a command
 * that is not read-only) call `beforeChange` right before they write or run, after the user allowed it. The first
 * call of a turn takes the snapshot; the others wait for it and cost nothing, and a turn that changes nothing never
 * touches git. A snapshot that fails never fails the tool: the change matters more than its undo.
 */
export class TurnCheckpoint {
  private store: Promise<CheckpointStore> | undefined;
  private turn = 0;
  private notice: CheckpointNotice | undefined;
  private taking: Promise<void> | undefined;
  private id: string | undefined;
  private warned = false;

  constructor(private readonly options: TurnCheckpointOptions) {}

  get enabled(): boolean {
    return this.options.settings.enabled;
  }

  /**
   * The directory's checkpoint store (created on first use, also when snapshots are off, so /rollback still lists).
   * Loaded with `import()`: a session that never changes a file never loads the checkpoint code, and session/new
   * does not wait for it.
   */
  checkpoints(): Promise<CheckpointStore> {
    this.store ??= import("../checkpoints/checkpoint-store.js").then(
      ({ CheckpointStore }) =>
        new CheckpointStore({
          workingDir: this.options.workingDir,
          hermesHome: this.options.hermesHome,
          maxSnapshots: this.options.settings.maxSnapshots,
        }),
    );
    return this.store;
  }

  /** A new user turn: the next change takes a snapshot again. `notice` reaches the user while this turn runs. */
  startTurn(turn: number, notice?: CheckpointNotice): void {
    this.turn = turn;
    this.notice = notice;
    this.taking = undefined;
    this.id = undefined;
  }

  /**
   * The checkpoint that holds the workspace as it was before this turn's first change, or undefined when the turn
   * changed nothing (or the snapshot failed). It may be an earlier turn's when nothing changed in between.
   */
  get turnCheckpointId(): string | undefined {
    return this.id;
  }

  /** Called right before the first write or command of the turn; `reason` is upstream's commit subject. */
  async beforeChange(reason: string): Promise<void> {
    if (!this.enabled) return;
    this.taking ??= this.take(reason);
    await this.taking;
  }

  private async take(reason: string): Promise<void> {
    try {
      const result = await (await this.checkpoints()).snapshot({
        reason,
        turn: this.turn,
        sessionId: this.options.sessionId,
      });
      this.id = result.id;
      if (!result.created && result.skipped !== "unchanged" && result.skipped !== "empty")
        this.options.log?.(`checkpoint skipped in ${this.options.workingDir}: ${result.skipped}`);
    } catch (error) {
      // By name, not instanceof: the checkpoint module is loaded lazily and this file must not import it.
      const missing = (error as Error).name === "GitMissingError";
      this.options.log?.(`checkpoint failed in ${this.options.workingDir}: ${(error as Error).message}`);
      if (this.warned) return;
      this.warned = true;
      this.notice?.(
        missing ? "Checkpoints unavailable: git not found" : "Checkpoint failed",
        missing
          ? "Hermes snapshots the workspace with git before each turn's first change, and git is not installed. The turn goes on without a checkpoint, so /rollback cannot undo it. Install git to get restore points."
          : `The workspace could not be snapshotted before this turn's changes (${(error as Error).message}). The turn goes on without a checkpoint, so /rollback cannot undo it. This is said once per session.`,
      );
    }
  }
}

/** Upstream's reason for a command: "before terminal: " and the first 60 characters of the command line. */
export function terminalReason(command: string): string {
  return `before terminal: ${command.slice(0, 60)}`;
}

import type { ToolSettings } from "../config/tool-settings.js";
import { BrowserHolder } from "./browser/browser-holder.js";
import type { SessionMode } from "./safety/session-mode.js";
import { ProcessTable } from "./terminal/process-table.js";
import type { TurnCheckpoint } from "./turn-checkpoint.js";

export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";

export interface TodoItem {
  readonly id: string;
  readonly content: string;
  readonly status: TodoStatus;
}

/**
 * What tools remember for one session: the task list, the commands the user approved for this session, the
 * background processes, and the settings read from config.yaml when the session opened.
 */
export class SessionToolState {
  todos: TodoItem[] = [];
  /** Approval keys (the pattern description, e.g. "recursive delete") the user allowed for this session. */
  readonly approvedForSession = new Set<string>();
  /** Failed memory consolidations in the current turn (upstream caps them at 3). */
  memoryFailuresThisTurn = 0;
  readonly processes = new ProcessTable();
  /** The user's choice of how much may happen without asking (set by the front end). */
  mode: SessionMode = "default";
  /**
   * Whether this session's commands run inside an OS sandbox (bubblewrap / Seatbelt): writes outside the workspace
   * fail on the sandbox's walls and credentials are unreadable. Without one the gate applies its stricter rules
   * (read-only mode parsed by the gate alone). Set by the front end once the sandbox was probed.
   */
  sandboxed = false;
  /**
   * Snapshots the workspace before the turn's first change (set by the front end when it offers /rollback);
   * absent: tools change files without a checkpoint.
   */
  checkpoint?: TurnCheckpoint;
  /** The session's browser (the browser tools), launched by their first call and closed with the session. */
  readonly browser = new BrowserHolder();

  constructor(
    readonly sessionId: string,
    readonly settings: ToolSettings,
  ) {}

  /** Ends what the session's tools started and keep running: background processes, the browser. */
  close(): void {
    this.processes.killAll();
    void this.browser.close();
  }
}

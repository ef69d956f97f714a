import { randomBytes } from "node:crypto";
import type { CommandExit, RunningCommand } from "../../workspace/workspace.js";
import { OutputCollector } from "./terminal-text.js";

/** A command started with `terminal(background=true)`. */
export interface BackgroundProcess {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly startedAt: number;
  readonly handle: RunningCommand;
  readonly output: OutputCollector;
  /** Set once the process has exited. */
  exit: CommandExit | undefined;
  /** Length of `output.text()` already returned by `poll`, so a poll shows only what is new. */
  polledChars: number;
}

/** One session's background processes. They are ended when the session closes or the server exits. */
export class ProcessTable {
  private readonly processes = new Map<string, BackgroundProcess>();

  add(command: string, cwd: string, handle: RunningCommand): BackgroundProcess {
    const id = `proc_${randomBytes(6).toString("hex")}`;
    const entry: BackgroundProcess = {
      id,
      command,
      cwd,
      startedAt: Date.now(),
      handle,
      output: new OutputCollector(20_000, 200_000),
      exit: undefined,
      polledChars: 0,
    };
    handle.onOutput((chunk) => entry.output.add(chunk));
    void handle.exited.then((exit) => (entry.exit = exit));
    this.processes.set(id, entry);
    return entry;
  }

  get(id: string): BackgroundProcess | undefined {
    return this.processes.get(id);
  }

  list(): BackgroundProcess[] {
    return [...this.processes.values()];
  }

  killAll(): void {
    for (const p of this.processes.values()) if (!p.exit) p.handle.kill();
  }
}

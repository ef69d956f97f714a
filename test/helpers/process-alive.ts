import { readdirSync, readFileSync } from "node:fs";

/**
 * Whether a process is still running. A killed process whose parent is gone may linger as a zombie until PID 1
 * reaps it (some containers never do); a zombie runs nothing, so it counts as dead.
 */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls until the process is gone (or `timeoutMs` passes); returns whether it is still running. */
export async function stillRunningAfter(pid: number, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/**
 * Host PIDs of running processes whose command line contains `marker`. A contained command runs in its own PID
 * namespace, so the `$!` it reports means nothing out here: tests mark its processes (a unique `sleep 30.12345`)
 * and look for the mark instead.
 */
export function runningWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker) && isRunning(Number(entry)))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A `sleep` of about 30 s whose argument marks it uniquely (see runningWith). */
export function markedSleep(): string {
  return `30.${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/** Polls until no process carries `marker` (or `timeoutMs` passes); returns whether any still runs. */
export async function markedStillRunningAfter(marker: string, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (runningWith(marker).length > 0) {
    if (Date.now() > deadline) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

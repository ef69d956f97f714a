import { readFileSync } from "node:fs";

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

import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const STALE_LOCK_MS = 10_000;
const WAIT_MS = 3_000;

/**
 * Runs `fn` holding `<file>.lock` (created exclusively), so two servers on one HERMES_HOME (two editor windows)
 * never interleave a read-modify-write of the same memory file. A lock left by a crashed process is taken over
 * after 10 s.
 */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (isStale(lock)) rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`${file} is locked by another Hermes process; try again`);
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}

/** Writes through a temporary file and a rename: readers see the old or the new file, never half of one. */
export function writeFileAtomic(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

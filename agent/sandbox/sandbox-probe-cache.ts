import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { release } from "node:os";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../store/memory-file-lock.js";

/**
 * A sandbox that worked, remembered across processes in HERMES_HOME/cache/sandbox-probe.json, so that a new server
 * does not spawn bwrap to find out again (~10–15 ms of the main thread, which lands in the first turn when the user
 * prompts right after opening a session). Only a success is kept: a machine that cannot sandbox is asked again by
 * every process, so installing bubblewrap takes effect at once. The verdict holds for the same program (path, size,
 * mtime, inode), the same kernel and user, for a week. A stale verdict cannot unconfine a command: at worst bwrap
 * fails to set up and the command fails with bwrap's own error, which also drops this file (forgetWorkingSandbox),
 * so the next process probes again. Nothing is kept until a server names its HERMES_HOME (keepSandboxProbeIn, as the
 * scanner's verdicts), so tests and `--check` probe for real.
 */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

interface ProbeRecord {
  readonly program: string;
  readonly identity: string;
  readonly checkedAt: number;
}

let recordFile: string | undefined;

/** Where the verdict is kept from now on (under a HERMES_HOME); undefined keeps none (tests). */
export function keepSandboxProbeIn(hermesHome: string | undefined): void {
  recordFile = hermesHome === undefined ? undefined : join(hermesHome, "cache", "sandbox-probe.json");
}

/** The program as it is on disk now, with the kernel and user it runs for; undefined when it cannot be read. */
function identityOf(program: string): string | undefined {
  try {
    const s = statSync(program);
    return [s.size, s.mtimeMs, s.ino, release(), process.getuid?.() ?? ""].join(":");
  } catch {
    return undefined;
  }
}

/** Whether `program` was seen to sandbox on this machine, as it is now, within the last week. */
export function rememberedWorking(program: string, now = Date.now()): boolean {
  if (!recordFile) return false;
  try {
    const record = JSON.parse(readFileSync(recordFile, "utf8")) as Partial<ProbeRecord>;
    return (
      record.program === program &&
      record.identity === identityOf(program) &&
      typeof record.checkedAt === "number" &&
      now - record.checkedAt >= 0 &&
      now - record.checkedAt < MAX_AGE_MS
    );
  } catch {
    return false;
  }
}

/** Remembers that `program` sandboxed a command just now (best effort: a read-only HERMES_HOME keeps nothing). */
export function rememberWorking(program: string, now = Date.now()): void {
  const identity = identityOf(program);
  const file = recordFile;
  if (!identity || !file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, JSON.stringify({ program, identity, checkedAt: now } satisfies ProbeRecord));
  } catch {
    // not remembered: the next process probes again
  }
}

/**
 * After a contained command or script: when bubblewrap itself failed to set the sandbox up (it exits 1 with
 * "bwrap: …" before the command runs, as when user namespaces were turned off since), the remembered verdict goes, so
 * the next process probes for real. `output` is what the process wrote on stderr (or stdout and stderr together).
 */
export function forgetSandboxIfSetUpFailed(output: string, exitCode: number | null): void {
  if (exitCode === 1 && output.startsWith("bwrap: ")) forgetWorkingSandbox();
}

/** Drops the remembered verdict: the next process probes for real. */
export function forgetWorkingSandbox(): void {
  if (!recordFile) return;
  try {
    rmSync(recordFile, { force: true });
  } catch {
    // a read-only HERMES_HOME: it ages out within a week
  }
}

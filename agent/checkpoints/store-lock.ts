/**
 * One operation at a time on the shared store. Upstream serialises every take, diff, restore and prune with
 * flock(2) on HERMES_HOME/.checkpoints.lock. Node has no flock, so where util-linux's `flock` exists (Linux) one
 * small shell per lock file keeps that file open on fd 9 and runs `flock 9` / `flock -u 9` on request: the lock
 * belongs to the shell's open file, so a Python Hermes on the same HERMES_HOME waits for us and we for it, and each
 * operation costs a fork inside the shell rather than a process started from Node (15-30 ms on a loaded machine).
 * Elsewhere only this process is serialised; git's index.lock and update-ref's compare-and-swap still keep two
 * writers from corrupting anything (the loser's operation fails and says so).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import type { Socket } from "node:net";
import { dirname } from "node:path";
import { CheckpointError } from "./git.js";

/** Upstream's STORE_LOCK_TAKE_TIMEOUT_SECONDS: a concurrent holder delays a snapshot rather than dropping it. */
const WAIT_SECONDS = 5;

const HELPER = `exec 9>>"$1" || exit 1
while IFS= read -r cmd; do
  case "$cmd" in
    lock) if flock -x -w ${WAIT_SECONDS} 9; then echo ok; else echo busy; fi ;;
    unlock) flock -u 9; echo ok ;;
  esac
done`;

class LockHelper {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Array<(line: string) => void> = [];
  private buffered = "";
  dead = false;

  constructor(lockFile: string) {
    this.child = spawn("sh", ["-c", HELPER, "hermes-checkpoint-lock", lockFile], {
      stdio: "pipe",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.buffered += chunk;
      for (let nl = this.buffered.indexOf("\n"); nl !== -1; nl = this.buffered.indexOf("\n")) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.waiting.shift()?.(line);
      }
      if (this.waiting.length === 0) (this.child.stdout as unknown as Socket).unref();
    });
    this.child.stdin.on("error", () => {});
    const die = () => {
      this.dead = true;
      for (const resolve of this.waiting.splice(0)) resolve("dead");
    };
    this.child.on("error", die);
    this.child.on("close", die);
    // The helper must never keep the server alive; it exits with us when its stdin closes.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
      (stream as unknown as Socket).unref();
  }

  request(command: "lock" | "unlock"): Promise<string> {
    if (this.dead) return Promise.resolve("dead");
    return new Promise((resolve) => {
      // Referenced only while an answer is awaited: an idle helper never holds the process open.
      (this.child.stdout as unknown as Socket).ref();
      this.waiting.push(resolve);
      this.child.stdin.write(`${command}\n`);
    });
  }
}

const helpers = new Map<string, LockHelper>();
const chains = new Map<string, Promise<unknown>>();
let flockFound: boolean | undefined;

function flockAvailable(): boolean {
  if (flockFound === undefined) {
    flockFound =
      process.platform !== "win32" &&
      (process.env.PATH ?? "/usr/bin:/bin").split(":").some((dir) => dir && existsSync(`${dir}/flock`));
  }
  return flockFound;
}

function helperFor(lockFile: string): LockHelper | undefined {
  if (!flockAvailable()) return undefined;
  let helper = helpers.get(lockFile);
  if (!helper || helper.dead) {
    mkdirSync(dirname(lockFile), { recursive: true });
    // Created 0600 as upstream does (the shell's redirection would use the umask's mode).
    closeSync(openSync(lockFile, "a", 0o600));
    helper = new LockHelper(lockFile);
    helpers.set(lockFile, helper);
  }
  return helper;
}

/** Runs `fn` holding the store lock (in-process queue first, then the cross-process flock). */
export function withStoreLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const previous = chains.get(lockFile) ?? Promise.resolve();
  const run = previous.then(
    () => holdAndRun(lockFile, fn),
    () => holdAndRun(lockFile, fn),
  );
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  chains.set(lockFile, settled);
  void settled.then(() => {
    if (chains.get(lockFile) === settled) chains.delete(lockFile);
  });
  return run;
}

async function holdAndRun<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const helper = helperFor(lockFile);
  if (helper) {
    const answer = await helper.request("lock");
    if (answer === "busy")
      throw new CheckpointError(`checkpoint store is busy (waited ${WAIT_SECONDS} s): ${lockFile}`);
    // A helper that died cannot hold anything; carry on unlocked rather than switch checkpoints off.
  }
  try {
    return await fn();
  } finally {
    if (helper && !helper.dead) await helper.request("unlock");
  }
}

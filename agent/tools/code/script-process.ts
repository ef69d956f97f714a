import { spawn } from "node:child_process";

/** Kept of stdout: upstream's cap on the saved copy (a runaway print loop must not fill memory or disk). */
export const MAX_KEPT_STDOUT_BYTES = 5_000_000;
/** Kept of stderr: upstream's MAX_STDERR_BYTES, the end of it (where a traceback's error is). */
export const MAX_STDERR_BYTES = 10_000;

export interface ScriptLaunch {
  /** The program and its arguments: the sandbox launcher, if any, then the interpreter and the script. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutSeconds: number;
  readonly signal: AbortSignal;
}

export interface ScriptExit {
  readonly stdout: string;
  /** Stdout past MAX_KEPT_STDOUT_BYTES was dropped (its byte count is still in `stdoutBytes`). */
  readonly stdoutBytes: number;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly stoppedBy?: "timeout" | "cancel";
  /** The interpreter could not be started at all. */
  readonly spawnError?: string;
}

/**
 * Runs the script in a process group of its own (detached, as the terminal's commands) with stdin closed, and on a
 * timeout or the turn's cancellation kills the whole group: the interpreter, the sandbox around it and anything the
 * script started. Never rejects.
 */
export function runScriptProcess(launch: ScriptLaunch): Promise<ScriptExit> {
  const [program, ...args] = launch.argv;
  return new Promise((resolve) => {
    const child = spawn(program!, args, {
      cwd: launch.cwd,
      env: launch.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let kept = 0;
    let stderr = Buffer.alloc(0);
    child.stdout!.on("data", (data: Buffer) => {
      stdoutBytes += data.length;
      if (kept >= MAX_KEPT_STDOUT_BYTES) return;
      const part = data.subarray(0, MAX_KEPT_STDOUT_BYTES - kept);
      stdout.push(part);
      kept += part.length;
    });
    child.stderr!.on("data", (data: Buffer) => {
      stderr = Buffer.concat([stderr, data]);
      if (stderr.length > MAX_STDERR_BYTES * 2) stderr = stderr.subarray(stderr.length - MAX_STDERR_BYTES);
    });
    let stoppedBy: ScriptExit["stoppedBy"];
    const killGroup = (reason: "timeout" | "cancel") => {
      stoppedBy ??= reason;
      if (child.pid !== undefined) signalGroup(child.pid);
    };
    const onAbort = () => killGroup("cancel");
    launch.signal.addEventListener("abort", onAbort, { once: true });
    if (launch.signal.aborted) onAbort();
    const timer = setTimeout(() => killGroup("timeout"), launch.timeoutSeconds * 1000);
    let finished = false;
    const finish = (exit: Pick<ScriptExit, "exitCode" | "spawnError">) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      launch.signal.removeEventListener("abort", onAbort);
      const err = stderr.length > MAX_STDERR_BYTES ? stderr.subarray(stderr.length - MAX_STDERR_BYTES) : stderr;
      resolve({
        stdout: Buffer.concat(stdout).toString("utf8"),
        stdoutBytes,
        stderr: err.toString("utf8"),
        ...exit,
        ...(stoppedBy ? { stoppedBy } : {}),
      });
    };
    child.on("error", (error) => finish({ exitCode: null, spawnError: error.message }));
    // What the script left running dies with it: its pipes would otherwise keep `close` from coming. A child that
    // left the group (setsid) and holds the pipes open cannot hold the turn: after a short grace the pipes are
    // dropped and the run ends with the script's own exit code.
    child.on("exit", (code) => {
      if (child.pid !== undefined) signalGroup(child.pid);
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ exitCode: code });
      }, PIPE_GRACE_MS).unref();
    });
    child.on("close", (code) => finish({ exitCode: code }));
  });
}

/** How long the pipes may stay open after the script exited (what it printed last is still being read). */
const PIPE_GRACE_MS = 500;

function signalGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is already gone
  }
}

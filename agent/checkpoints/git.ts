/**
 * Runs git against the shadow store with an environment built from nothing: the workspace may be hostile (its own
 * .git/config, hooks, .gitattributes filters) and the user's git setup may be hostile to background work (gpgsign,
 * fsmonitor daemons, credential prompts). GIT_DIR/GIT_WORK_TREE/GIT_INDEX_FILE point git at the store, so the
 * workspace's own .git is never read; no GIT_* variable of ours leaks in (GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF,
 * GIT_TEMPLATE_DIR…); global and system config are /dev/null as upstream; HOME is the checkpoint base so no
 * ~/.config/git/{attributes,ignore} applies; and the `-c` flags below switch off what could still run a program.
 */
import { spawn } from "node:child_process";
import { devNull } from "node:os";

/** git could not be started: checkpoints are unavailable (the caller turns this into a notice, once). */
export class GitMissingError extends Error {
  constructor(detail: string) {
    super(`Checkpoints need git, which could not be run (${detail}). Install git to enable /rollback.`);
    this.name = "GitMissingError";
  }
}

/** A checkpoint operation failed; `message` is fit to show to the user. */
export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointError";
  }
}

export interface GitContext {
  store: string;
  workTree: string;
  /** HOME for git: somewhere we own (the checkpoint base). */
  home: string;
  timeoutMs: number;
  /** PATH to find git on; the server's own by default. */
  path?: string;
}

export interface GitCall {
  /** Per-project index (GIT_INDEX_FILE); omitted for commands that only read objects and refs. */
  index?: string;
  input?: string | Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 from `diff-index --quiet`). */
  allow?: readonly number[];
  env?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

// Each one closes a door a hostile workspace or user config could use to run code or reach the network.
const SAFE_CONFIG = [
  `core.hooksPath=${devNull}`,
  "core.fsmonitor=false",
  "core.untrackedCache=true",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.quotePath=false",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "safe.directory=*",
  "protocol.allow=never",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "color.ui=false",
];
const CONFIG_ARGS = SAFE_CONFIG.flatMap((setting) => ["-c", setting]);

function gitEnv(ctx: GitContext, call: GitCall, withWorkTree: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: ctx.path ?? process.env.PATH ?? "/usr/bin:/bin",
    HOME: ctx.home,
    LANG: "C",
    LC_ALL: "C",
    GIT_DIR: ctx.store,
    GIT_CONFIG_GLOBAL: devNull,
    GIT_CONFIG_SYSTEM: devNull,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    ...call.env,
  };
  if (process.platform === "win32") {
    for (const key of ["SystemRoot", "TEMP", "TMP"]) if (process.env[key]) env[key] = process.env[key];
  }
  if (withWorkTree) env.GIT_WORK_TREE = ctx.workTree;
  if (call.index) env.GIT_INDEX_FILE = call.index;
  return env;
}

/** `git init --bare` refuses GIT_WORK_TREE and GIT_DIR; the same clean environment otherwise. */
export function runGitInit(ctx: GitContext, store: string): Promise<GitResult> {
  const env = gitEnv(ctx, {}, false);
  delete env.GIT_DIR;
  return spawnGit(ctx, ["init", "--bare", "--quiet", store], env, {}, ctx.home);
}

/** Runs `git <args>` on the store and work tree; rejects with CheckpointError on an exit code not allowed. */
export async function runGit(ctx: GitContext, args: readonly string[], call: GitCall = {}): Promise<GitResult> {
  const result = await spawnGit(ctx, args, gitEnv(ctx, call, true), call, ctx.workTree);
  if (result.code !== 0 && !call.allow?.includes(result.code)) {
    throw new CheckpointError(`git ${args[0]} failed (exit ${result.code}): ${result.stderr.trim() || "no message"}`);
  }
  return result;
}

/** stdout as text, trailing newline removed. */
export async function gitText(ctx: GitContext, args: readonly string[], call: GitCall = {}): Promise<string> {
  return (await runGit(ctx, args, call)).stdout.toString("utf8").trimEnd();
}

function spawnGit(
  ctx: GitContext,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  call: GitCall,
  cwd: string,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...CONFIG_ARGS, ...args], {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
      timeout: call.timeoutMs ?? ctx.timeoutMs,
      killSignal: "SIGKILL",
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" && error.syscall?.startsWith("spawn")) reject(new GitMissingError("not on PATH"));
      else reject(new CheckpointError(`git ${args[0]} could not run: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      if (signal) {
        reject(
          new CheckpointError(
            `git ${args[0]} stopped (${signal}); timed out after ${call.timeoutMs ?? ctx.timeoutMs} ms?`,
          ),
        );
        return;
      }
      resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") });
    });
    // A git that exits before reading its input must not crash the server with EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(call.input ?? "");
  });
}

/** Splits NUL-separated git output (`-z`), keeping names byte-exact apart from UTF-8 decoding. */
export function splitNul(output: Buffer): string[] {
  return output
    .toString("utf8")
    .split("\0")
    .filter((part) => part.length > 0);
}

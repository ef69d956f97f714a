import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { type FileHandle, mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { withoutSecrets } from "../sandbox/secret-environment.js";
import { commandArgv } from "./command-argv.js";
import type { CommandExit, CommandSpec, DirEntry, FileStat, RunningCommand, Workspace } from "./workspace.js";
import { WorkspaceError } from "./workspace.js";

export { SHELL } from "./command-argv.js";

const KILL_GRACE_MS = 2000;

// Non-interactive defaults so a command never waits for a pager or a credential prompt nobody can answer.
export const QUIET_ENV: Readonly<Record<string, string>> = { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };

/** Files on this machine's disk and processes spawned here. */
export class LocalWorkspace implements Workspace {
  constructor(
    readonly root: string,
    private readonly baseEnv: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  async readTextFile(path: string): Promise<string> {
    let handle: FileHandle | undefined;
    try {
      handle = await openRegularFile(path, constants.O_RDONLY);
      return await handle.readFile("utf8");
    } catch (error) {
      throw toWorkspaceError(error, path);
    } finally {
      await handle?.close();
    }
  }

  async readBytes(path: string, maxBytes: number): Promise<Uint8Array> {
    let handle: FileHandle | undefined;
    try {
      handle = await openRegularFile(path, constants.O_RDONLY);
      const buffer = Buffer.alloc(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead);
    } catch (error) {
      throw toWorkspaceError(error, path);
    } finally {
      await handle?.close();
    }
  }

  async writeTextFile(path: string, content: string): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true });
      const handle = await openRegularFile(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
      try {
        await handle.writeFile(content, "utf8");
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw toWorkspaceError(error, path);
    }
  }

  async deleteFile(path: string): Promise<void> {
    try {
      await rm(path, { force: true });
    } catch (error) {
      throw toWorkspaceError(error, path);
    }
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await stat(path);
      return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, mtimeMs: s.mtimeMs };
    } catch {
      return undefined;
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    try {
      const entries = await readdir(path, { withFileTypes: true });
      return entries.map((e) => ({
        name: e.name,
        isFile: e.isFile(),
        isDirectory: e.isDirectory(),
        isSymlink: e.isSymbolicLink(),
      }));
    } catch (error) {
      throw toWorkspaceError(error, path);
    }
  }

  /** Provider keys and other credentials of the server's environment never reach a command (see secret-environment). */
  runCommand(spec: CommandSpec): RunningCommand {
    return startLocalCommand(spec, { ...withoutSecrets(this.baseEnv, spec.envPassthrough), ...QUIET_ENV, ...spec.env });
  }
}

/**
 * Spawns `spec.command` in its own process group (detached), so that cancelling kills everything it started,
 * not just the shell. stdin is closed unless asked for, so a command that reads input gets EOF instead of hanging.
 */
function startLocalCommand(spec: CommandSpec, env: Record<string, string | undefined>): RunningCommand {
  const [program, ...args] = commandArgv(spec);
  const child = spawn(program!, args, {
    cwd: spec.cwd,
    env,
    detached: true,
    stdio: [spec.stdin ? "pipe" : "ignore", "pipe", "pipe"],
  });
  const listeners: Array<(chunk: string) => void> = [];
  const emit = (chunk: string) => {
    if (chunk) for (const listener of listeners) listener(chunk);
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    const decoder = new StringDecoder("utf8");
    stream.on("data", (data: Buffer) => emit(decoder.write(data)));
    stream.on("end", () => emit(decoder.end()));
  }
  let killTimer: NodeJS.Timeout | undefined;
  const exited = new Promise<CommandExit>((resolve) => {
    child.on("error", (error) => {
      emit(`${error.message}\n`);
      resolve({ exitCode: 127, signal: null });
    });
    child.on("close", (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      resolve({ exitCode: code, signal });
    });
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is already gone
    }
  };
  return {
    pid: child.pid,
    onOutput: (listener) => void listeners.push(listener),
    exited,
    write: (data) => {
      if (child.stdin && !child.stdin.destroyed) child.stdin.write(data);
    },
    kill: () => {
      signalGroup("SIGTERM");
      killTimer ??= setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS);
      killTimer.unref();
    },
  };
}

/**
 * Opens without blocking and keeps only regular files. A named pipe opened the ordinary way blocks a thread of
 * libuv's small pool until someone writes to it: four such reads stalled every session of the server. The file
 * tools check the type first, but a file swapped for a pipe after that check must not block either.
 */
async function openRegularFile(path: string, flags: number): Promise<FileHandle> {
  const handle = await open(path, flags | constants.O_NONBLOCK);
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (stats.isFile()) return handle;
  await handle.close();
  throw Object.assign(new Error("not a regular file"), { code: stats.isDirectory() ? "EISDIR" : "ENOTREGULAR" });
}

function toWorkspaceError(error: unknown, path: string): WorkspaceError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return new WorkspaceError("not_found", `File not found: ${path}`);
  if (code === "EISDIR") return new WorkspaceError("not_a_file", `${path} is a directory, not a file`);
  if (code === "EACCES" || code === "EPERM") return new WorkspaceError("denied", `Permission denied: ${path}`);
  if (code === "ENOTREGULAR" || code === "ENXIO")
    return new WorkspaceError(
      "not_a_file",
      `${path} is a named pipe, socket or device, not a file; it was not opened for reading or writing`,
    );
  return new WorkspaceError("io", `${path}: ${(error as Error).message}`);
}

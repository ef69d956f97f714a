/**
 * The only way tools reach files and processes. `agent/` ships a local implementation; `acp-server/` wraps it so
 * that reads and writes go through the editor when the client offers `fs` (unsaved buffers are seen, edits land in
 * the editor) and commands run in the editor's terminals when it offers `terminal`. All paths are absolute.
 */
export interface Workspace {
  /** The session's working directory: relative paths in tool arguments resolve against it. */
  readonly root: string;
  /** UTF-8 text of a file. Throws WorkspaceError("not_found") when it does not exist. */
  readTextFile(path: string): Promise<string>;
  /** Raw bytes, for binary detection and images. Local disk only (editors serve text). */
  readBytes(path: string, maxBytes: number): Promise<Uint8Array>;
  /**
   * Writes UTF-8 text, creating missing parent folders. Through an editor that reviews edits, the user may keep
   * only part of it (the result says what the file now holds) or reject it (WorkspaceError "denied").
   */
  writeTextFile(path: string, content: string): Promise<WriteResult | void>;
  /** Removes a file (a V4A patch's `*** Delete File`); a file that is already gone is not an error. */
  deleteFile(path: string): Promise<void>;
  /** Undefined when nothing is at `path`. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Entry names of a folder (not recursive). Throws WorkspaceError("not_found") when it does not exist. */
  readDir(path: string): Promise<DirEntry[]>;
  /** Starts a shell command; the returned handle streams output and can be waited on, written to and killed. */
  runCommand(spec: CommandSpec): RunningCommand;
}

export interface WriteResult {
  /** Set when the user kept only some of the changes: the file's text as written. */
  readonly keptText?: string;
}

export interface FileStat {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface DirEntry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymlink: boolean;
}

export interface CommandSpec {
  /** A shell command line, run by the user's shell (`/bin/sh -c` semantics). */
  readonly command: string;
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Keep stdin open for `process write`. */
  readonly stdin?: boolean;
  /** The tool call the command runs for: an editor running it in its own terminal shows that terminal there. */
  readonly toolCallId?: string;
  /**
   * A program and its arguments that run the shell (an OS sandbox: `bwrap … --`, `sandbox-exec -p …`). Absent: the
   * shell runs directly.
   */
  readonly launcher?: readonly string[];
  /** Secret-looking variables of the inherited environment that the user lets through (`terminal.env_passthrough`). */
  readonly envPassthrough?: readonly string[];
}

export interface CommandExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export interface RunningCommand {
  readonly pid: number | undefined;
  /** Registers a listener for output (stdout and stderr interleaved, decoded as UTF-8). */
  onOutput(listener: (chunk: string) => void): void;
  /** Resolves when the process has exited and its output is drained. */
  readonly exited: Promise<CommandExit>;
  /** Sends data to the process's stdin (when started with `stdin: true`). */
  write(data: string): void;
  /** Ends the whole process group: SIGTERM, then SIGKILL after a grace period. */
  kill(): void;
}

export type WorkspaceErrorCode = "not_found" | "not_a_file" | "denied" | "io";

export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "WorkspaceError";
  }
}

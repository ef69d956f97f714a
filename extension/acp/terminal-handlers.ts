import { type ChildProcess, spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import * as acp from "@agentclientprotocol/sdk";

const KILL_GRACE_MS = 2000;
const DEFAULT_OUTPUT_BYTE_LIMIT = 1_048_576;
// The chat card of a released terminal still shows its output: the last ones are remembered, their ends only.
const REMEMBERED_RELEASED = 20;
const REMEMBERED_CHARS = 20_000;

/** Where one terminal's output is shown to the user (a VS Code pseudoterminal in the extension). */
export interface TerminalDisplay {
  output(text: string): void;
  exited(status: acp.TerminalExitStatus): void;
}

/** Opens the display of a command, shown as `commandLine`. */
export type OpenTerminalDisplay = (commandLine: string) => TerminalDisplay;

interface RunningTerminal {
  readonly child: ChildProcess;
  readonly output: CappedOutput;
  readonly exited: Promise<acp.TerminalExitStatus>;
  status: acp.TerminalExitStatus | undefined;
}

/**
 * The client side of ACP terminals (`terminal/create|output|wait_for_exit|kill|release`): the agent's commands run
 * here as child processes in their own process group (so a kill ends everything they started), their output kept
 * up to the agent's byte limit (dropping from the front, at a character boundary) and shown to the user as it comes.
 * Release kills a command still running and forgets it; its display keeps the output.
 */
export class TerminalHandlers {
  private readonly terminals = new Map<string, RunningTerminal>();
  private readonly released = new Map<string, string>();
  private nextId = 1;

  constructor(private readonly openDisplay?: OpenTerminalDisplay) {}

  create(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const terminalId = `term_${this.nextId++}`;
    const env = { ...process.env };
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    // Without args the command is a shell line (as Zed runs it); with args it is executed directly.
    const child = spawn(params.command, params.args ?? [], {
      cwd: params.cwd ?? undefined,
      env,
      shell: params.args === undefined,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = new CappedOutput(params.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT);
    const display = this.openDisplay?.(commandLine(params));
    const append = (text: string) => {
      if (!text) return;
      output.append(text);
      display?.output(text);
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      const decoder = new StringDecoder("utf8");
      stream.on("data", (data: Buffer) => append(decoder.write(data)));
      stream.on("end", () => append(decoder.end()));
    }
    const terminal: RunningTerminal = {
      child,
      output,
      status: undefined,
      exited: new Promise((resolve) => {
        const finish = (status: acp.TerminalExitStatus) => {
          if (terminal.status) return;
          terminal.status = status;
          display?.exited(status);
          resolve(status);
        };
        child.on("error", (error) => {
          append(`${error.message}\n`);
          finish({ exitCode: 127, signal: null });
        });
        child.on("close", (code, signal) => finish({ exitCode: code, signal }));
      }),
    };
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const terminal = this.get(params.terminalId);
    return {
      output: terminal.output.text(),
      truncated: terminal.output.truncated,
      ...(terminal.status ? { exitStatus: terminal.status } : {}),
    };
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(params.terminalId).exited;
  }

  kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    stop(this.get(params.terminalId));
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    const terminal = this.get(params.terminalId);
    stop(terminal);
    this.terminals.delete(params.terminalId);
    this.released.set(params.terminalId, terminal.output.text().slice(-REMEMBERED_CHARS));
    if (this.released.size > REMEMBERED_RELEASED) this.released.delete(this.released.keys().next().value!);
    return {};
  }

  /** What a terminal has printed so far (the end of it, once released), for the chat's tool card. */
  outputOf(terminalId: string): string | undefined {
    return this.terminals.get(terminalId)?.output.text().slice(-REMEMBERED_CHARS) ?? this.released.get(terminalId);
  }

  /** Ends every command still running (the connection is closing). */
  dispose(): void {
    for (const terminal of this.terminals.values()) stop(terminal);
    this.terminals.clear();
  }

  private get(terminalId: string): RunningTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw acp.RequestError.resourceNotFound(terminalId);
    return terminal;
  }
}

/** SIGTERM to the whole process group, SIGKILL after a grace period if it is still there. */
function stop(terminal: RunningTerminal): void {
  const pid = terminal.child.pid;
  if (terminal.status || pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // the group is gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => !terminal.status && signal("SIGKILL"), KILL_GRACE_MS);
  timer.unref();
}

/**
 * How the user reads the command: the shell line of `sh -c <line>`, also when a launcher runs the shell (the agent's
 * OS sandbox, `bwrap … -- /bin/bash -c <line>`, or `env -u KEY … bash -c <line>`), else the command and its arguments.
 */
export function commandLine(params: Pick<acp.CreateTerminalRequest, "command" | "args">): string {
  const argv = [params.command, ...(params.args ?? [])];
  const shell = argv.length - 3;
  if (shell >= 0 && argv[shell + 1] === "-c" && /(^|\/)(ba|z|da|k)?sh$/.test(argv[shell]!)) return argv[shell + 2]!;
  return argv.join(" ");
}

/**
 * Output kept within a byte limit by dropping its front at a character boundary. Trimming waits until twice the
 * limit has built up, so a chatty command costs amortised O(1) per byte.
 */
export class CappedOutput {
  private kept = "";
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  append(text: string): void {
    this.kept += text;
    this.bytes += Buffer.byteLength(text);
    if (this.bytes > this.limit * 2) this.trim();
  }

  text(): string {
    if (this.bytes > this.limit) this.trim();
    return this.kept;
  }

  private trim(): void {
    const buffer = Buffer.from(this.kept);
    let start = buffer.length - this.limit;
    // Never start inside a character: skip UTF-8 continuation bytes.
    while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
    this.kept = buffer.subarray(start).toString("utf8");
    this.bytes = buffer.length - start;
    this.truncated = true;
  }
}

/** Registers `terminal/*` on a client app, answered by `terminals`. */
export function onTerminalRequests(app: acp.ClientApp, terminals: TerminalHandlers): acp.ClientApp {
  return app
    .onRequest("terminal/create", ({ params }) => terminals.create(params))
    .onRequest("terminal/output", ({ params }) => terminals.output(params))
    .onRequest("terminal/wait_for_exit", ({ params }) => terminals.waitForExit(params))
    .onRequest("terminal/kill", ({ params }) => terminals.kill(params))
    .onRequest("terminal/release", ({ params }) => terminals.release(params));
}

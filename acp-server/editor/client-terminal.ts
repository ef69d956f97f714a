import {
  type AgentContext,
  type CreateTerminalRequest,
  RequestError,
  type TerminalExitStatus,
  type TerminalOutputResponse,
  type WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import {
  type CommandExit,
  type CommandSpec,
  editorTerminalArgv,
  QUIET_ENV,
  type RunningCommand,
} from "../../agent/index.js";
import type { Logger } from "../rpc/log.js";
import type { TerminalLinks } from "./terminal-links.js";

// The editor keeps this much of the output (dropping from the front); we read it before it drops what we have not.
const OUTPUT_BYTE_LIMIT = 1_048_576;
// Every read returns the editor's whole buffer, so how often we read is a trade. Reading every POLL_MS cost up to
// 4 MB/s of JSON for a long chatty command. So the pause between reads grows with the buffer, to keep the traffic
// near READ_CHARS_PER_MS (~250 KB/s), but shrinks again while the command prints fast, so what it prints between two
// reads stays under a quarter of the buffer (HEADROOM_CHARS): nothing is dropped before we read it, and the
// output the tool collects (the model's result) is the same as with fixed reads. At most 4 s at a full buffer.
const POLL_MS = 250;
const READ_CHARS_PER_MS = 256;
const HEADROOM_CHARS = OUTPUT_BYTE_LIMIT / 4;
// An editor that does not answer create/output/kill/release is not waited for past this.
const CLIENT_TIMEOUT_MS = 15_000;
// After terminal/kill, how long the command may take to report its exit before it is given up on.
const EXIT_AFTER_KILL_MS = 5_000;
// How much of the output read so far finds our place again once the editor starts dropping its front.
const ANCHOR_CHARS = 200;

export interface ClientTerminalOptions {
  readonly client: AgentContext;
  readonly sessionId: string;
  readonly links: TerminalLinks;
  readonly log: Logger;
  /** Runs the command on this machine instead, when the editor cannot. */
  readonly runLocally: (spec: CommandSpec) => RunningCommand;
  /** How long an editor request may take (CLIENT_TIMEOUT_MS; tests shorten it). */
  readonly clientTimeoutMs?: number;
}

/**
 * A command run in the editor's terminal (ACP `terminal/*`), so the user sees it run where they work: created with
 * the same shell as local commands (`bash -c`), embedded in its tool call, its output read (every 250 ms to 4 s, see
 * POLL_MS) into the tool's progress, and always released at the end (release kills it if it still runs). Killing
 * (cancel, timeout) is `terminal/kill`. If the editor refuses to create the terminal, the command runs here instead,
 * and the log says why. ACP terminals take no input, so `write` does nothing (commands that need stdin never come
 * here).
 */
export class ClientTerminalCommand implements RunningCommand {
  readonly pid = undefined;
  readonly exited: Promise<CommandExit>;
  private readonly listeners: Array<(chunk: string) => void> = [];
  private terminalId: string | undefined;
  private local: RunningCommand | undefined;
  private killedAt: number | undefined;
  private killSent = false;
  /** Characters of output read so far (while the editor has dropped nothing), and their end. */
  private readLength = 0;
  private readTail = "";
  /** The pause before the next read, and when the last read was (for the output rate). */
  private pollMs = POLL_MS;
  private lastReadAt = 0;

  constructor(
    private readonly spec: CommandSpec & { readonly toolCallId: string },
    private readonly options: ClientTerminalOptions,
  ) {
    this.exited = this.run();
  }

  onOutput(listener: (chunk: string) => void): void {
    this.listeners.push(listener);
  }

  write(): void {}

  kill(): void {
    if (this.killedAt !== undefined) return;
    this.killedAt = Date.now();
    if (this.local) this.local.kill();
    else if (this.terminalId) this.sendKill();
    // Still being created: run() kills it as soon as it has an id.
  }

  private async run(): Promise<CommandExit> {
    const { sessionId, links, log } = this.options;
    const env = Object.entries({ ...QUIET_ENV, ...this.spec.env }).map(([name, value]) => ({ name, value }));
    let terminalId: string;
    try {
      const [command, ...args] = editorTerminalArgv(this.spec);
      terminalId = await this.create({
        sessionId,
        command,
        args,
        cwd: this.spec.cwd,
        env,
        outputByteLimit: OUTPUT_BYTE_LIMIT,
      });
    } catch (error) {
      // Only a refusal says the command did not start there.
      if (!(error instanceof RequestError)) throw error;
      log.warn(`the editor could not open a terminal (${error.message}); running the command here`);
      return this.runHere();
    }
    this.terminalId = terminalId;
    this.lastReadAt = Date.now();
    log.debug(`running in the editor's terminal ${terminalId}: ${this.spec.command}`);
    try {
      // Embedded in the tool call before anything else can end it, and so before the release below.
      await links.link(this.spec.toolCallId, terminalId);
      if (this.killedAt !== undefined) this.sendKill();
      const exit = await this.waitForExit();
      await this.readOutput();
      return exit;
    } catch (error) {
      throw new Error(`The editor's terminal failed: ${(error as Error).message}`);
    } finally {
      await this.call("terminal/release").catch((error: unknown) =>
        log.warn(`could not release terminal ${terminalId}: ${(error as Error).message}`),
      );
    }
  }

  /**
   * `terminal/create`. An editor that has not answered in time may still start the command (its reply only late):
   * running it here as well would run it twice (a commit, a delete), so the tool call fails instead, and a terminal
   * that turns up later is released (which stops the command if it still runs).
   */
  private async create(params: CreateTerminalRequest): Promise<string> {
    const { client, log } = this.options;
    const timeoutMs = this.options.clientTimeoutMs ?? CLIENT_TIMEOUT_MS;
    // Aborting tells the editor ($/cancel_request) but keeps waiting for its reply: a late terminal must be released.
    const giveUp = new AbortController();
    const created = client
      .request("terminal/create", params, { cancellationSignal: giveUp.signal })
      .then((r) => r.terminalId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    const terminalId = await Promise.race([created, late]).finally(() => clearTimeout(timer));
    if (terminalId !== undefined) return terminalId;
    giveUp.abort();
    created.then(
      (id) => {
        log.warn(`the editor opened terminal ${id} after the command was given up on; releasing it`);
        this.call("terminal/release", id).catch((error: unknown) =>
          log.warn(`could not release terminal ${id}: ${(error as Error).message}`),
        );
      },
      () => undefined,
    );
    throw new Error(
      `The editor did not open a terminal within ${timeoutMs / 1000}s, so the command was not run here: the editor may still start it, and running it twice could repeat its effects. Check the editor before running it again.`,
    );
  }

  /** Waits for the exit while reading the output into the progress; gives up a while after a kill nobody answers. */
  private async waitForExit(): Promise<CommandExit> {
    const stopWaiting = new AbortController();
    let exit: WaitForTerminalExitResponse | undefined;
    const waiting = this.options.client
      .request(
        "terminal/wait_for_exit",
        { sessionId: this.options.sessionId, terminalId: this.terminalId! },
        { cancellationSignal: stopWaiting.signal, stopWaitingOnCancel: true },
      )
      .then((result) => void (exit = result))
      .catch(() => undefined);
    try {
      for (;;) {
        await Promise.race([waiting, new Promise((r) => setTimeout(r, this.pollMs))]);
        if (exit) return { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null };
        const status = await this.readOutput();
        if (status) return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
        if (this.killedAt !== undefined && Date.now() - this.killedAt > EXIT_AFTER_KILL_MS) {
          this.options.log.warn(
            `terminal ${this.terminalId} did not report an exit after it was killed; giving up on it`,
          );
          return { exitCode: null, signal: "SIGKILL" };
        }
      }
    } finally {
      stopWaiting.abort();
    }
  }

  /** Reads the terminal's output and passes on what is new; returns the exit status once there is one. */
  private async readOutput(): Promise<TerminalExitStatus | undefined> {
    const { output, truncated, exitStatus } = await this.call<TerminalOutputResponse>("terminal/output");
    const fresh = this.newPart(output, truncated);
    this.pollMs = nextPollMs(output.length, fresh.length, Date.now() - this.lastReadAt);
    this.lastReadAt = Date.now();
    this.emit(fresh);
    return exitStatus ?? undefined;
  }

  /**
   * What `output` holds beyond what was read before. Until the editor drops the front of the output it only grows;
   * after, the end of what was read is looked for in it (a command repeating that very text could make this off).
   */
  private newPart(output: string, truncated: boolean): string {
    let fresh: string;
    if (!truncated) {
      fresh = output.slice(this.readLength);
    } else {
      const at = this.readTail ? output.lastIndexOf(this.readTail) : -1;
      fresh =
        at >= 0
          ? output.slice(at + this.readTail.length)
          : `${this.readLength > 0 ? "\n[... output the editor dropped ...]\n" : ""}${output}`;
    }
    this.readLength = output.length;
    this.readTail = output.slice(-ANCHOR_CHARS);
    return fresh;
  }

  private runHere(): Promise<CommandExit> {
    const local = this.options.runLocally(this.spec);
    this.local = local;
    local.onOutput((chunk) => this.emit(chunk));
    if (this.killedAt !== undefined) local.kill();
    return local.exited;
  }

  private sendKill(): void {
    if (this.killSent) return;
    this.killSent = true;
    void this.call("terminal/kill").catch((error: unknown) =>
      this.options.log.warn(`could not kill terminal ${this.terminalId}: ${(error as Error).message}`),
    );
  }

  private call<Response = unknown>(method: string, terminalId = this.terminalId): Promise<Response> {
    return this.options.client.request<Response>(
      method,
      { sessionId: this.options.sessionId, terminalId },
      {
        cancellationSignal: AbortSignal.timeout(this.options.clientTimeoutMs ?? CLIENT_TIMEOUT_MS),
        stopWaitingOnCancel: true,
      },
    );
  }

  private emit(chunk: string): void {
    if (chunk) for (const listener of this.listeners) listener(chunk);
  }
}

/**
 * The pause before the next read of a buffer of `buffered` characters, when `fresh` of them arrived in the last
 * `elapsedMs`: long enough to keep the traffic near READ_CHARS_PER_MS, short enough that at the current rate what
 * arrives meanwhile fits in HEADROOM_CHARS; never under POLL_MS.
 */
export function nextPollMs(buffered: number, fresh: number, elapsedMs: number): number {
  const byTraffic = buffered / READ_CHARS_PER_MS;
  const byRate = fresh > 0 ? (HEADROOM_CHARS * Math.max(elapsedMs, 1)) / fresh : Infinity;
  return Math.max(POLL_MS, Math.min(byTraffic, byRate));
}

import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import {
  type CommandSpec,
  type DirEntry,
  type FileStat,
  LocalWorkspace,
  type RunningCommand,
  type Workspace,
  WorkspaceError,
  type WriteResult,
} from "../../agent/index.js";
import type { Logger } from "../rpc/log.js";
import { ClientTerminalCommand } from "./client-terminal.js";
import type { TerminalLinks } from "./terminal-links.js";

// An editor that does not answer a read within this is reported as not answering (never read behind its back).
const CLIENT_TIMEOUT_MS = 15_000;
const RESOURCE_NOT_FOUND = -32002;
const METHOD_NOT_FOUND = -32601;

interface ClientError {
  readonly code?: number;
  readonly message?: string;
  readonly data?: { readonly reason?: string };
}

/**
 * Files through the editor when the client offers `fs`: reads see unsaved buffers, writes land in the editor (where
 * the user reviews them). Commands of a tool call run in the editor's terminals when it offers `terminal`, shown in
 * that call. The editor's no is final: an error reply to a read or a write is reported to the model as the editor's
 * refusal, and the file is not read or written on the local disk behind its back (the editor may guard paths the
 * agent should not touch). Only "method not found" (an editor that advertised fs but does not implement the method)
 * falls back to the disk, for that method, for the rest of the session. What the client does not offer (listing,
 * stat, background processes) is always local.
 */
export class AcpWorkspace implements Workspace {
  private readonly local: LocalWorkspace;
  /** Methods the client answered "method not found" to: the local disk serves them from then on. */
  private readonly missing = new Set<"fs/read_text_file" | "fs/write_text_file">();

  constructor(
    readonly root: string,
    private readonly sessionId: string,
    private readonly client: AgentContext,
    private readonly capabilities: ClientCapabilities,
    private readonly log: Logger,
    private readonly terminals: TerminalLinks,
    private readonly readTimeoutMs = CLIENT_TIMEOUT_MS,
  ) {
    this.local = new LocalWorkspace(root);
  }

  async readTextFile(path: string): Promise<string> {
    if (!this.capabilities.fs?.readTextFile || this.missing.has("fs/read_text_file"))
      return this.local.readTextFile(path);
    const timeout = AbortSignal.timeout(this.readTimeoutMs);
    try {
      const { content } = await this.client.request(
        "fs/read_text_file",
        { sessionId: this.sessionId, path },
        { cancellationSignal: timeout, stopWaitingOnCancel: true },
      );
      return content;
    } catch (error) {
      const failure = error as ClientError;
      if (failure.code === RESOURCE_NOT_FOUND) throw new WorkspaceError("not_found", `File not found: ${path}`);
      if (failure.code === METHOD_NOT_FOUND)
        return this.localAfterMissing("fs/read_text_file", () => this.local.readTextFile(path));
      if (timeout.aborted) {
        throw new WorkspaceError(
          "io",
          `The editor did not answer a read of ${path} within ${this.readTimeoutMs / 1000} s; the file was not read.`,
        );
      }
      throw new WorkspaceError(
        "denied",
        `The editor refused to read ${path} (${failure.message ?? "no reason given"}); the file was not read. Do not try to read it another way.`,
      );
    }
  }

  /**
   * Through the editor. An editor that reviews edits (ours) answers once the user decided: a rejection is final
   * (never written behind the user's back), a partial accept says what was kept. No timeout here: a review takes
   * as long as the user needs (the turn's cancellation still ends it).
   */
  async writeTextFile(path: string, content: string): Promise<WriteResult | void> {
    if (!this.capabilities.fs?.writeTextFile || this.missing.has("fs/write_text_file"))
      return this.local.writeTextFile(path, content);
    let response: { _meta?: { [key: string]: unknown } | null } | null | void;
    try {
      response = await this.client.request("fs/write_text_file", { sessionId: this.sessionId, path, content });
    } catch (error) {
      const failure = error as ClientError;
      if (failure.data?.reason === "rejected") {
        throw new WorkspaceError(
          "denied",
          `The user rejected this edit to ${path} in the editor; the file was not changed. Do not retry it unchanged.`,
        );
      }
      if (failure.code === METHOD_NOT_FOUND)
        return this.localAfterMissing("fs/write_text_file", () => this.local.writeTextFile(path, content));
      throw new WorkspaceError(
        "denied",
        `The editor refused to write ${path} (${failure.message ?? "no reason given"}); the file was not changed. Do not try to write it another way.`,
      );
    }
    const kept = (response?._meta as { hermes?: { keptText?: unknown } } | undefined)?.hermes?.keptText;
    return typeof kept === "string" ? { keptText: kept } : undefined;
  }

  /** The client advertised a method it does not implement: the disk serves it for the rest of this session. */
  private localAfterMissing<T>(method: "fs/read_text_file" | "fs/write_text_file", run: () => Promise<T>): Promise<T> {
    if (!this.missing.has(method))
      this.log.warn(`the editor does not implement ${method}; using the local disk for this session`);
    this.missing.add(method);
    return run();
  }

  readBytes(path: string, maxBytes: number): Promise<Uint8Array> {
    return this.local.readBytes(path, maxBytes);
  }

  deleteFile(path: string): Promise<void> {
    return this.local.deleteFile(path);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.local.stat(path);
  }

  readDir(path: string): Promise<DirEntry[]> {
    return this.local.readDir(path);
  }

  /**
   * ACP terminals take no input, so commands that need stdin (background processes driven by `process write`) run
   * here; so do commands outside a tool call, which would have nowhere to show their terminal.
   */
  runCommand(spec: CommandSpec): RunningCommand {
    const { toolCallId } = spec;
    if (!this.capabilities.terminal || spec.stdin || !toolCallId) return this.local.runCommand(spec);
    return new ClientTerminalCommand(
      { ...spec, toolCallId },
      {
        client: this.client,
        sessionId: this.sessionId,
        links: this.terminals,
        log: this.log,
        runLocally: (s) => this.local.runCommand(s),
      },
    );
  }
}

import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import { LocalWorkspace } from "../agent/workspace/local-workspace.js";
import { WorkspaceError, type CommandSpec, type DirEntry, type FileStat, type RunningCommand, type Workspace, type WriteResult } from "../agent/workspace/workspace.js";
import { ClientTerminalCommand } from "./client-terminal.js";
import type { Logger } from "./log.js";
import type { TerminalLinks } from "./terminal-links.js";

// An editor that does not answer is not waited for: past this, the local disk is used.
const CLIENT_TIMEOUT_MS = 15_000;
const RESOURCE_NOT_FOUND = -32002;

/**
 * Files through the editor when the client offers `fs`: reads see unsaved buffers, writes land in the editor (where
 * the user reviews them). Commands of a tool call run in the editor's terminals when it offers `terminal`, shown in
 * that call. Anything the client refuses or does not answer falls back to the local disk and processes, and what the
 * client does not offer (listing, stat, background processes) is always local.
 */
export class AcpWorkspace implements Workspace {
  private readonly local: LocalWorkspace;

  constructor(
    readonly root: string,
    private readonly sessionId: string,
    private readonly client: AgentContext,
    private readonly capabilities: ClientCapabilities,
    private readonly log: Logger,
    private readonly terminals: TerminalLinks,
  ) {
    this.local = new LocalWorkspace(root);
  }

  async readTextFile(path: string): Promise<string> {
    if (!this.capabilities.fs?.readTextFile) return this.local.readTextFile(path);
    try {
      const { content } = await this.client.request("fs/read_text_file", { sessionId: this.sessionId, path }, { cancellationSignal: AbortSignal.timeout(CLIENT_TIMEOUT_MS), stopWaitingOnCancel: true });
      return content;
    } catch (error) {
      if ((error as { code?: number }).code === RESOURCE_NOT_FOUND) throw new WorkspaceError("not_found", `File not found: ${path}`);
      this.log.warn(`editor could not read ${path} (${(error as Error).message}); reading from disk`);
      return this.local.readTextFile(path);
    }
  }

  /**
   * Through the editor. An editor that reviews edits (ours) answers once the user decided: a rejection is final
   * (never written behind the user's back), a partial accept says what was kept. No timeout here: a review takes
   * as long as the user needs (the turn's cancellation still ends it).
   */
  async writeTextFile(path: string, content: string): Promise<WriteResult | void> {
    if (!this.capabilities.fs?.writeTextFile) return this.local.writeTextFile(path, content);
    let response: { _meta?: { [key: string]: unknown } | null } | null | void;
    try {
      response = await this.client.request("fs/write_text_file", { sessionId: this.sessionId, path, content });
    } catch (error) {
      if ((error as { data?: { reason?: string } }).data?.reason === "rejected") {
        throw new WorkspaceError("denied", `The user rejected this edit to ${path} in the editor; the file was not changed. Do not retry it unchanged.`);
      }
      this.log.warn(`editor could not write ${path} (${(error as Error).message}); writing to disk`);
      return this.local.writeTextFile(path, content);
    }
    const kept = (response?._meta as { hermes?: { keptText?: unknown } } | undefined)?.hermes?.keptText;
    return typeof kept === "string" ? { keptText: kept } : undefined;
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
      { client: this.client, sessionId: this.sessionId, links: this.terminals, log: this.log, runLocally: (s) => this.local.runCommand(s) },
    );
  }
}

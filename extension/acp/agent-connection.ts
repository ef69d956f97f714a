import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type * as vscode from "vscode";
import type { ReviewController } from "../review/review-controller.js";
import {
  CHECKPOINT_PREVIEW_METHOD,
  CHECKPOINT_RESTORE_METHOD,
  type CheckpointPreview,
  type CheckpointRestore,
  offersCheckpoints,
} from "./checkpoint-wire.js";
import { readTextFile, writeTextFile } from "./client-handlers.js";
import { DocumentEvents, wantedDocumentEvents } from "./document-events.js";
import { spawnServer } from "./server-process.js";
import { onTerminalRequests, TerminalHandlers } from "./terminal-handlers.js";
import { TerminalViews } from "./terminal-view.js";

export interface ConnectionHooks {
  readonly onUpdate: (notification: acp.SessionNotification) => void;
  /** `signal` aborts when the agent withdraws the question (its timeout, a cancelled turn). */
  readonly onPermission: (
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ) => Promise<acp.RequestPermissionResponse>;
  readonly onExit: () => void;
}

export interface ConnectionOptions {
  readonly serverPath: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly log: vscode.OutputChannel;
  readonly review: ReviewController;
  readonly hooks: ConnectionHooks;
  /** The MCP servers of VS Code's configuration, given to every session this connection opens (vscode-mcp-servers.ts). */
  readonly mcpServers?: readonly acp.McpServer[];
  /** The `hermes.defaultMode` setting: the mode each session of this connection starts in. */
  readonly defaultMode?: string;
}

/**
 * The extension's ACP client of its own hermes-acp, exactly as Zed talks to it: one server per window, one session,
 * file access through the editor (unsaved buffers; writes become reviewed proposals).
 */
export class AgentConnection {
  /** Tells the server which files the user opens and looks at, when it asked for that. */
  private documents: DocumentEvents | undefined;
  /** The agent's commands, run here and shown in VS Code terminals. */
  private terminals: TerminalHandlers | undefined;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: acp.ClientConnection,
    private currentSessionId: string,
    /** What the server said it can do (session list, document events, …). */
    readonly agentCapabilities: acp.AgentCapabilities,
    private options: readonly acp.SessionConfigOption[],
    private readonly mcpServers: readonly acp.McpServer[],
    private readonly defaultMode: string | undefined,
  ) {}

  static async start(options: ConnectionOptions): Promise<AgentConnection> {
    const child = spawnServer(options.serverPath, options.cwd, options.env, options.log);
    child.on("exit", () => options.hooks.onExit());
    // Views outlive the connection: the user closes them (a restarted server must not wipe what they were reading).
    const views = new TerminalViews();
    const terminals = new TerminalHandlers((commandLine) => views.display(commandLine));
    child.on("exit", () => terminals.dispose());
    const app = onTerminalRequests(acp.client({ name: "hermes-vscode" }), terminals)
      .onRequest("fs/read_text_file", ({ params }) => readTextFile(params))
      .onRequest("fs/write_text_file", ({ params }) => writeTextFile(params, options.review))
      .onRequest("session/request_permission", ({ params, signal }) => options.hooks.onPermission(params, signal))
      .onNotification("session/update", ({ params }) => options.hooks.onUpdate(params));
    const connection = app.connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
    try {
      const initialized = await connection.agent.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "hermes-vscode", version: "0.1.0" },
      });
      const mcpServers = [...(options.mcpServers ?? [])];
      const created = await connection.agent.request("session/new", { cwd: options.cwd, mcpServers });
      const connected = new AgentConnection(
        child,
        connection,
        created.sessionId,
        initialized.agentCapabilities ?? {},
        created.configOptions ?? [],
        mcpServers,
        options.defaultMode,
      );
      connected.terminals = terminals;
      connected.startDocumentEvents(options.log);
      // Edits are reviewed as diffs in the editor, so the server need not ask about them as well.
      await connected.setConfigOption("mode", startingMode(options.defaultMode));
      return connected;
    } catch (error) {
      child.kill();
      throw error;
    }
  }

  get sessionId(): string {
    return this.currentSessionId;
  }

  /** The session's config options (mode, model) as the server last reported them. */
  get configOptions(): readonly acp.SessionConfigOption[] {
    return this.options;
  }

  /** Sets a session config option (mode, model); resolves with all options as they now stand. */
  async setConfigOption(configId: string, value: string): Promise<readonly acp.SessionConfigOption[]> {
    const { configOptions } = await this.connection.agent.request("session/set_config_option", {
      sessionId: this.currentSessionId,
      configId,
      value,
    } as acp.SetSessionConfigOptionRequest);
    this.options = configOptions;
    return configOptions;
  }

  /** Earlier sessions of this workspace, newest first (empty when the server cannot list). */
  async listSessions(cwd: string): Promise<acp.SessionInfo[]> {
    if (!this.agentCapabilities.sessionCapabilities?.list) return [];
    const { sessions } = await this.connection.agent.request("session/list", { cwd });
    return sessions;
  }

  /** Switches to an earlier session; its history is replayed as session updates before this resolves. */
  async loadSession(sessionId: string, cwd: string): Promise<readonly acp.SessionConfigOption[]> {
    const previous = this.currentSessionId;
    // Switched before the request: the history replay arrives as updates of the loaded session before it answers.
    this.currentSessionId = sessionId;
    try {
      const loaded = await this.connection.agent.request("session/load", {
        sessionId,
        cwd,
        mcpServers: [...this.mcpServers],
      });
      this.options = loaded.configOptions ?? [];
      this.documents?.resync();
      if (previous !== sessionId) this.closeSession(previous);
      return this.options;
    } catch (error) {
      this.currentSessionId = previous;
      throw error;
    }
  }

  /** New Chat on the running server: a fresh session, edits reviewed in the editor as for the first one. */
  async newSession(cwd: string): Promise<readonly acp.SessionConfigOption[]> {
    const previous = this.currentSessionId;
    const created = await this.connection.agent.request("session/new", { cwd, mcpServers: [...this.mcpServers] });
    this.currentSessionId = created.sessionId;
    this.options = created.configOptions ?? [];
    this.documents?.resync();
    this.closeSession(previous);
    return this.setConfigOption("mode", startingMode(this.defaultMode));
  }

  /**
   * The chat left a session: the server may free it (its tool state, background processes). It stays saved and can
   * be opened again. Not awaited: nothing the user does waits on it.
   */
  private closeSession(sessionId: string): void {
    if (!this.agentCapabilities.sessionCapabilities?.close) return;
    void this.connection.agent.request("session/close", { sessionId }).catch(() => undefined);
  }

  private startDocumentEvents(log: vscode.OutputChannel): void {
    const wanted = wantedDocumentEvents(this.agentCapabilities);
    if (!wanted) return;
    const notify = (method: string, params: Record<string, unknown>) => this.connection.agent.notify(method, params);
    this.documents = new DocumentEvents(
      notify,
      () => this.currentSessionId,
      wanted,
      (line) => log.appendLine(`[hermes] ${line}`),
    );
    // A dead server is replaced by a new connection: this one must stop listening to the editor.
    this.child.once("exit", () => this.documents?.dispose());
  }

  /** A terminal's output so far, for the chat (the agent's commands run in this window's terminals). */
  terminalOutput(terminalId: string): string | undefined {
    return this.terminals?.outputOf(terminalId);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Whether the server can preview and restore checkpoints for the chat (older servers only have /rollback). */
  get checkpoints(): boolean {
    return offersCheckpoints(this.agentCapabilities._meta);
  }

  previewCheckpoint(checkpoint: string): Promise<CheckpointPreview> {
    return this.connection.agent.request<CheckpointPreview>(CHECKPOINT_PREVIEW_METHOD, {
      sessionId: this.sessionId,
      checkpoint,
    });
  }

  /** Restores without asking: the caller has shown the preview and the user confirmed. */
  restoreCheckpoint(checkpoint: string, paths?: readonly string[]): Promise<CheckpointRestore> {
    return this.connection.agent.request<CheckpointRestore>(CHECKPOINT_RESTORE_METHOD, {
      sessionId: this.sessionId,
      checkpoint,
      ...(paths ? { paths } : {}),
    });
  }

  /**
   * The server writes a turn's updates before its response, but the SDK hands a notification to its handler some
   * microtasks after reading it (it validates it first) and may settle the response sooner: without the macrotask
   * below, a caller that sends the next prompt at once (Edit & resend: `/undo`, then the text) saw the last reply's
   * text land after its own message.
   */
  async prompt(prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    const response = await this.connection.agent.request("session/prompt", { sessionId: this.sessionId, prompt });
    await new Promise((resolve) => setImmediate(resolve));
    return response;
  }

  cancel(): Promise<void> {
    return this.connection.agent.notify("session/cancel", { sessionId: this.sessionId });
  }

  dispose(): void {
    this.documents?.dispose();
    this.terminals?.dispose();
    this.connection.close();
    this.child.kill();
  }
}

/**
 * The mode a new session starts in: the `hermes.defaultMode` setting, by default accept_edits (every edit is already
 * reviewed as a diff in the editor, so the server need not ask about it as well). The session's own picker changes
 * it afterwards; config.yaml has no say here, since an ACP session's mode is the client's choice.
 */
function startingMode(setting: string | undefined): string {
  return setting && ["read_only", "default", "accept_edits", "yolo"].includes(setting) ? setting : "accept_edits";
}

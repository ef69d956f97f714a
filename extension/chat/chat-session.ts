import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type {
  ChatSnapshot,
  HostNotificationMethod,
  HostNotifications,
  SessionSummary,
} from "../../webview-ui/protocol.js";
import { AgentConnection } from "../acp/agent-connection.js";
import { responseCheckpoint } from "../acp/checkpoint-wire.js";
import type { SecretEnv } from "../acp/secret-env.js";
import { vscodeMcpServers } from "../acp/vscode-mcp-servers.js";
import { contextBlocks } from "../editor-context/context-mentions.js";
import type { TerminalOutput } from "../editor-context/terminal-output.js";
import type { ReviewController } from "../review/review-controller.js";
import { ChatAttachments } from "./chat-attachments.js";
import { ChatTranscript, type TranscriptSink } from "./chat-transcript.js";
import { CheckpointRestorer } from "./checkpoint-restore.js";
import { pickersOf } from "./config-pickers.js";
import { PermissionRequests } from "./permission-requests.js";
import { SetupFlow } from "./setup-flow.js";
import { isAuthRequired } from "./setup-offer.js";

export interface ChatSessionOptions {
  readonly serverPath: string;
  readonly log: vscode.OutputChannel;
  readonly review: ReviewController;
  readonly secrets: SecretEnv;
  /** Recent terminal output, for `@terminal` (editor-context/terminal-output.ts). */
  readonly terminalOutput?: TerminalOutput;
}

/**
 * The conversation the chat view shows, owned by the extension host (the webview holds no truth). One server per
 * window, started when the chat is first used; if it dies, the user is told and a fresh one starts on the next prompt.
 */
export class ChatSession implements vscode.Disposable {
  private connection: AgentConnection | undefined;
  private starting: Promise<AgentConnection> | undefined;
  private readonly sinks = new Set<TranscriptSink>();
  private busy = false;
  /** Sessions the chat has left (New Chat, another one opened): their late updates must not reach this transcript. */
  private readonly left = new Set<string>();
  readonly transcript: ChatTranscript;
  readonly permissions: PermissionRequests;
  readonly attachments: ChatAttachments;
  /** "Restore files to before this turn": preview, question, restore. */
  readonly checkpoints = new CheckpointRestorer();
  /** The first-run setup card and what it does (setup-flow.ts). */
  readonly setup: SetupFlow;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly options: ChatSessionOptions) {
    const sink: TranscriptSink = (method, params) => this.broadcast(method, params);
    this.transcript = new ChatTranscript(
      sink,
      (path) => vscode.workspace.asRelativePath(path, false),
      (id) => this.connection?.terminalOutput(id),
    );
    this.setup = new SetupFlow({
      transcript: this.transcript,
      serverPath: options.serverPath,
      env: () => options.secrets.env(),
      rerun: (prompt) => this.run(prompt),
    });
    this.permissions = new PermissionRequests(this.transcript);
    this.attachments = new ChatAttachments((attachments) => this.transcript.setAttachments(attachments));
    this.subscriptions.push(
      this.permissions,
      this.checkpoints,
      options.review.onDidChangeReview((event) => {
        if (event.type === "proposed") this.transcript.addReview(event.id, event.path, event.base, event.proposed);
        else this.transcript.setReviewStatus(event.id, event.status);
      }),
    );
  }

  get snapshot(): ChatSnapshot {
    return this.transcript.snapshot();
  }

  get review(): ReviewController {
    return this.options.review;
  }

  /** Asks the view to focus the composer (after Add to Chat) or the waiting permission card. */
  focus(target: "composer" | "permission"): void {
    this.broadcast("chat/focus", { target });
  }

  get running(): boolean {
    return this.busy;
  }

  /** The server's process id while it runs (the Show Server Log command and tests use it). */
  get serverPid(): number | undefined {
    return this.connection?.alive ? this.connection.pid : undefined;
  }

  /** A view listening to the transcript; it first draws `snapshot`, then follows these notifications. */
  subscribe(sink: TranscriptSink): vscode.Disposable {
    this.sinks.add(sink);
    return { dispose: () => this.sinks.delete(sink) };
  }

  /** Starts the server (once; concurrent callers share the start) so commands and pickers are there before a prompt. */
  connect(): Promise<AgentConnection> {
    if (this.connection?.alive) return Promise.resolve(this.connection);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  attachFile(uri: vscode.Uri): void {
    this.attachments.addFile(uri);
    this.focus("composer");
  }

  /** Text from a terminal (its context menu's "Add to Hermes Chat"). */
  attachText(label: string, text: string): void {
    this.attachments.addText(label, text);
    this.focus("composer");
  }

  attachSelection(uri: vscode.Uri, text: string, startLine: number, endLine: number): void {
    this.attachments.addSelection(uri, text, startLine, endLine);
    this.focus("composer");
  }

  /** Sends a prompt with the pending attachments (plus `files`), and resolves with the stop reason. */
  async prompt(text: string, files: readonly vscode.Uri[] = []): Promise<acp.StopReason> {
    if (this.busy && /^\/queue\s+\S/.test(text.trim())) return this.queue(text);
    if (this.busy) throw new Error("Hermes is still answering; wait for it, cancel, or /queue what comes next.");
    for (const uri of files) this.attachments.addFile(uri);
    const { attachments, blocks } = this.attachments.take();
    this.transcript.addUser(text, attachments);
    const context = this.options.terminalOutput ? contextBlocks(text, this.options.terminalOutput) : [];
    return this.run([{ type: "text", text }, ...blocks, ...context]);
  }

  /** "Retry": the latest message runs again (`/retry`); its old reply leaves the chat as it leaves the conversation. */
  retry(): Promise<acp.StopReason> {
    // Checked before anything changes, and thrown at once: the view's request fails with the reason.
    this.refuseWhileBusy();
    const target = this.transcript.retryTarget;
    if (!target) throw new Error("There is no message to retry.");
    this.transcript.truncate(target, true);
    return this.run([{ type: "text", text: "/retry" }]);
  }

  /**
   * "Edit & resend": `/undo K` takes message `itemId` and every exchange after it out of the conversation (the server
   * then offers to restore the files those turns changed, as a permission card), and `text` is sent in its place.
   * The `/undo` shows in the chat as sent, so the user sees what was taken back and why a question follows.
   */
  resend(itemId: string, text: string): Promise<acp.StopReason> {
    this.refuseWhileBusy();
    const count = this.transcript.exchangesFrom(itemId);
    if (count === undefined) throw new Error("That message is no longer in the conversation; send it as a new one.");
    this.transcript.truncate(itemId, false);
    return this.undoThenPrompt(count, text);
  }

  private async undoThenPrompt(count: number, text: string): Promise<acp.StopReason> {
    const undo = `/undo ${count}`;
    this.transcript.addUser(undo, []);
    const stopReason = await this.run([{ type: "text", text: undo }]);
    return stopReason === "end_turn" ? this.prompt(text) : stopReason;
  }

  /** Shows what restoring a turn's checkpoint changes and restores once the user agrees (checkpoint-restore.ts). */
  async restoreCheckpoint(itemId: string): Promise<void> {
    if (this.busy) throw new Error("Wait for the current answer (or cancel it) before restoring files.");
    const item = this.transcript.item(itemId);
    if (item?.kind !== "checkpoint") throw new Error("That checkpoint is no longer in the chat.");
    const connection = await this.connect();
    if (!connection.checkpoints) throw new Error("This Hermes server cannot restore from the chat; use /rollback.");
    const label = (path: string) => vscode.workspace.asRelativePath(path, false);
    const line = await this.checkpoints.restore(connection, item, label);
    if (line) this.transcript.addNotice("info", line);
  }

  private refuseWhileBusy(): void {
    if (this.busy) throw new Error("Hermes is still answering; wait for it, or cancel it.");
  }

  /** One prompt request: the chat is busy until it answers, and a turn that changed files leaves its checkpoint. */
  private async run(prompt: acp.ContentBlock[]): Promise<acp.StopReason> {
    this.setBusy(true);
    // Counted now: texts lined up with /queue run in the same request, and their messages come before its end.
    const turn = this.transcript.userMessages;
    try {
      const connection = await this.connect();
      const response = await connection.prompt(prompt);
      const { stopReason } = response;
      const checkpoint = connection.checkpoints ? responseCheckpoint(response._meta) : undefined;
      if (checkpoint) this.transcript.addCheckpoint(checkpoint, turn);
      if (stopReason === "max_tokens")
        this.transcript.addNotice("warning", "The reply was cut off: the model reached its output limit.");
      if (stopReason === "refusal") this.transcript.addNotice("warning", "The model refused to continue.");
      return stopReason;
    } catch (error) {
      // No model configured: the setup card instead of a dead end; the prompt runs once a model works.
      if (isAuthRequired(error))
        this.setup.offer((error as Error).message.replace(/^Authentication required: /, ""), prompt);
      else this.transcript.addNotice("error", `Hermes could not answer: ${(error as Error).message}`);
      throw error;
    } finally {
      this.setBusy(false);
    }
  }

  /**
   * `/queue <text>` while a turn runs: the server answers at once (the reply rides in the response's `_meta`, so it
   * does not land inside the running turn's text) and runs the text after the turn's next model call.
   */
  private async queue(text: string): Promise<acp.StopReason> {
    const connection = await this.connect();
    const response = await connection.prompt([{ type: "text", text }]);
    const reply = (response._meta as { hermes?: { reply?: unknown } } | null | undefined)?.hermes?.reply;
    this.transcript.addNotice("info", typeof reply === "string" ? reply : "Queued for the next turn.");
    return response.stopReason;
  }

  async cancel(): Promise<void> {
    // session/cancel first: answered before it, a card's "cancelled" would read as a denial and the turn go on.
    await this.connection?.cancel();
    this.permissions.cancelAll();
  }

  /** New Chat: a fresh session on the running server (or on the next start) and an empty transcript. */
  async newChat(): Promise<void> {
    if (this.busy) await this.cancel();
    if (this.connection?.alive) this.left.add(this.connection.sessionId);
    this.transcript.reset();
    if (!this.connection?.alive) return;
    this.transcript.setPickers(pickersOf(await this.connection.newSession(this.folder())));
    await this.applyModelSetting(this.connection, vscode.workspace.getConfiguration("hermes").get<string>("model"));
  }

  async setConfigOption(configId: string, value: string): Promise<void> {
    const connection = await this.connect();
    this.transcript.setPickers(pickersOf(await connection.setConfigOption(configId, value)));
  }

  async listSessions(): Promise<SessionSummary[]> {
    const connection = await this.connect();
    const sessions = await connection.listSessions(this.folder());
    return sessions.map((s) => ({
      sessionId: s.sessionId,
      title: s.title || "Untitled session",
      ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}),
      current: s.sessionId === connection.sessionId,
    }));
  }

  /** Reopens an earlier session: its history is replayed into a fresh transcript. */
  async openSession(sessionId: string, title = "Earlier session"): Promise<void> {
    if (this.busy) throw new Error("Wait for the current answer (or cancel it) before opening another session.");
    const connection = await this.connect();
    if (connection.sessionId !== sessionId) this.left.add(connection.sessionId);
    this.left.delete(sessionId);
    this.transcript.reset(title);
    this.transcript.setPickers(pickersOf(await connection.loadSession(sessionId, this.folder())));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.connection?.dispose();
  }

  private folder(): string {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error("Open a folder to chat with Hermes about it.");
    return folder;
  }

  private async start(): Promise<AgentConnection> {
    const settings = vscode.workspace.getConfiguration("hermes");
    // hermes.sandboxNetwork "deny" cuts the network of contained commands; it can tighten config.yaml, never loosen it.
    const env = {
      ...(await this.options.secrets.env()),
      ...(settings.get<string>("sandboxNetwork") === "deny" ? { HERMES_SANDBOX_NETWORK: "deny" } : {}),
    };
    const cwd = this.folder();
    const mcp = vscodeMcpServers(cwd, vscode.workspace.getConfiguration("mcp").get("servers"));
    for (const line of mcp.skipped) this.options.log.appendLine(`MCP server not forwarded: ${line}`);
    // Declared before the start: a server that exits during it (refused at session/new, say for want of a model)
    // calls onExit before start() returns, and must find no connection rather than an uninitialised one.
    let connection: AgentConnection | undefined;
    connection = await AgentConnection.start({
      serverPath: this.options.serverPath,
      cwd,
      mcpServers: mcp.servers,
      defaultMode: vscode.workspace.getConfiguration("hermes").get<string>("defaultMode"),
      env,
      log: this.options.log,
      review: this.options.review,
      hooks: {
        onUpdate: (n) => {
          if (!this.left.has(n.sessionId)) this.transcript.apply(n.update);
        },
        onPermission: (request, signal) => this.permissions.ask(request, signal),
        onExit: () => {
          if (!connection || this.connection !== connection) return;
          this.connection = undefined;
          this.permissions.cancelAll();
          // The next prompt starts a new session: the conversation the messages above belonged to is gone.
          this.transcript.sealUserItems();
          this.transcript.addNotice("error", "The Hermes server stopped. It will be restarted with your next message.");
          void vscode.window.showWarningMessage(
            "The Hermes server stopped; it will restart on your next message. See “Hermes: Show Server Log”.",
          );
        },
      },
    });
    this.connection = connection;
    this.transcript.setPickers(pickersOf(connection.configOptions));
    await this.applyModelSetting(connection, settings.get<string>("model"));
    return connection;
  }

  /**
   * hermes.model: a new session starts on that model when it is one of the configured choices (config.yaml's model
   * and its fallbacks, as the picker lists them); otherwise config.yaml's default stays, and the log says why.
   */
  private async applyModelSetting(connection: AgentConnection, model: string | undefined): Promise<void> {
    if (!model) return;
    const picker = pickersOf(connection.configOptions).find((p) => p.id === "model");
    // The model's name as config.yaml writes it, or the picker's `provider:model`.
    const choice = picker?.choices.find((c) => c.value === model || c.name === model);
    if (!choice) {
      this.options.log.appendLine(`hermes.model "${model}" is not among the configured models; using the default.`);
      return;
    }
    if (picker?.currentValue !== choice.value) await this.setConfigOption("model", choice.value);
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    void vscode.commands.executeCommand("setContext", "hermes.turnRunning", busy);
    this.transcript.setBusy(busy);
  }

  private broadcast<M extends HostNotificationMethod>(method: M, params: HostNotifications[M]): void {
    for (const sink of this.sinks) sink(method, params);
  }
}

import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { TranscriptEntry } from "../../webview-ui/protocol.js";
import { AgentConnection } from "../acp/agent-connection.js";
import type { SecretEnv } from "../acp/secret-env.js";
import type { ReviewController } from "../review/review-controller.js";

export interface ChatSessionOptions {
  readonly serverPath: string;
  readonly log: vscode.OutputChannel;
  readonly review: ReviewController;
  readonly secrets: SecretEnv;
}

type Listener = (change: { entry?: TranscriptEntry; busy?: boolean; reset?: boolean }) => void;

/**
 * The conversation the chat view shows, owned by the extension host (the webview holds no truth). Starts the
 * server on the first prompt; if the server dies, says so and starts a fresh one on the next prompt.
 */
export class ChatSession implements vscode.Disposable {
  private connection: AgentConnection | undefined;
  private readonly entries: TranscriptEntry[] = [];
  private readonly listeners = new Set<Listener>();
  private nextId = 1;
  private busy = false;
  private current: TranscriptEntry | undefined;
  private readonly toolEntries = new Map<string, number>();
  /** Files and selections the user added with the Add File / Add Selection commands, sent with the next prompt. */
  private pendingAttachments: acp.ContentBlock[] = [];

  constructor(private readonly options: ChatSessionOptions) {}

  get snapshot(): { entries: readonly TranscriptEntry[]; busy: boolean } {
    return { entries: this.entries, busy: this.busy };
  }

  get running(): boolean {
    return this.busy;
  }

  /** The server's process id while it runs (the Show Server Log command and tests use it). */
  get serverPid(): number | undefined {
    return this.connection?.alive ? this.connection.pid : undefined;
  }

  onChange(listener: Listener): vscode.Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Attaches a file (as a resource link: the agent reads it, and its folder's hints apply) to the next prompt. */
  attachFile(uri: vscode.Uri): void {
    this.pendingAttachments.push({ type: "resource_link", uri: uri.toString(), name: vscode.workspace.asRelativePath(uri) });
    this.add("notice", `Attached ${vscode.workspace.asRelativePath(uri)}`);
  }

  /** Attaches a selection's text (as an embedded resource, with its file and lines) to the next prompt. */
  attachSelection(uri: vscode.Uri, text: string, startLine: number, endLine: number): void {
    const where = `${vscode.workspace.asRelativePath(uri)}:${startLine + 1}-${endLine + 1}`;
    this.pendingAttachments.push({ type: "resource", resource: { uri: `${uri.toString()}#L${startLine + 1}-L${endLine + 1}`, text, mimeType: "text/plain" } });
    this.add("notice", `Attached the selection ${where}`);
  }

  /** Sends a prompt (text plus attached files as resource links) and resolves with the stop reason. */
  async prompt(text: string, attachments: readonly vscode.Uri[] = []): Promise<acp.StopReason> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error("Open a folder to chat with Hermes about it.");
    this.add("user", text);
    this.setBusy(true);
    this.current = undefined;
    try {
      if (!this.connection?.alive) this.connection = await this.start(folder);
      const blocks: acp.ContentBlock[] = [
        { type: "text", text },
        ...this.pendingAttachments.splice(0),
        ...attachments.map((uri) => ({ type: "resource_link" as const, uri: uri.toString(), name: vscode.workspace.asRelativePath(uri) })),
      ];
      const { stopReason } = await this.connection.prompt(blocks);
      return stopReason;
    } catch (error) {
      this.add("notice", `Hermes could not answer: ${(error as Error).message}`);
      throw error;
    } finally {
      this.setBusy(false);
    }
  }

  async cancel(): Promise<void> {
    await this.connection?.cancel();
  }

  /** New Chat: a fresh server session and an empty transcript. */
  reset(): void {
    this.connection?.dispose();
    this.connection = undefined;
    this.entries.length = 0;
    this.toolEntries.clear();
    this.emit({ reset: true });
  }

  dispose(): void {
    this.connection?.dispose();
  }

  private async start(folder: string): Promise<AgentConnection> {
    const env = await this.options.secrets.env();
    const connection = await AgentConnection.start({
      serverPath: this.options.serverPath,
      cwd: folder,
      env,
      log: this.options.log,
      review: this.options.review,
      hooks: {
        onUpdate: (n) => this.onUpdate(n.update),
        onPermission: (request) => askPermission(request),
        onExit: () => {
          if (this.connection !== connection) return;
          this.connection = undefined;
          this.add("notice", "The Hermes server stopped. It will be restarted with your next message.");
          void vscode.window.showWarningMessage("The Hermes server stopped; it will restart on your next message. See “Hermes: Show Server Log”.");
        },
      },
    });
    return connection;
  }

  private onUpdate(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const role = update.sessionUpdate === "agent_message_chunk" ? "agent" : "thought";
        const text = update.content.type === "text" ? update.content.text : "";
        if (this.current?.role === role) this.replace({ ...this.current, text: this.current.text + text });
        else this.current = this.add(role, text);
        return;
      }
      case "tool_call":
        this.current = undefined;
        this.toolEntries.set(update.toolCallId, this.add("tool", `⚙ ${update.title}`).id);
        return;
      case "tool_call_update": {
        const id = this.toolEntries.get(update.toolCallId);
        const entry = this.entries.find((e) => e.id === id);
        if (entry && update.status && update.status !== "in_progress") this.replace({ ...entry, text: `${entry.text.replace(/ — (completed|failed)$/, "")} — ${update.status}` });
        return;
      }
      default:
        return;
    }
  }

  private add(role: TranscriptEntry["role"], text: string): TranscriptEntry {
    const entry: TranscriptEntry = { id: this.nextId++, role, text };
    this.entries.push(entry);
    this.emit({ entry });
    return entry;
  }

  private replace(entry: TranscriptEntry): void {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    if (this.current?.id === entry.id) this.current = entry;
    this.emit({ entry });
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    void vscode.commands.executeCommand("setContext", "hermes.turnRunning", busy);
    this.emit({ busy });
  }

  private emit(change: Parameters<Listener>[0]): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** Until the chat view renders permission cards, the agent's own options are offered as a notification. */
async function askPermission(request: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
  const title = request.toolCall.title ?? "Hermes asks for permission";
  const picked = await vscode.window.showInformationMessage(title, ...request.options.map((o) => o.name));
  const option = request.options.find((o) => o.name === picked);
  return option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };
}

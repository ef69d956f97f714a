import * as vscode from "vscode";
import { ChatSession, type ChatSessionOptions } from "./chat-session.js";
import { bindChatWebview } from "./chat-webview.js";

/**
 * Chats in editor tabs, besides the sidebar's: each tab is its own ChatSession (its own server and session), so
 * several conversations run side by side. Closing a tab ends its chat (the session stays saved, and can be opened
 * again from any chat's session list).
 */
export class ChatPanels implements vscode.Disposable {
  private readonly open = new Set<{ readonly panel: vscode.WebviewPanel; readonly chat: ChatSession }>();
  private count = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly options: ChatSessionOptions,
  ) {}

  /** Opens a new chat in an editor tab (beside the active editor) and returns it. */
  openChat(): ChatSession {
    this.count++;
    const title = this.count === 1 ? "Hermes Chat" : `Hermes Chat ${this.count}`;
    const panel = vscode.window.createWebviewPanel("hermes.chatPanel", title, vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: false,
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "hermes.svg");
    const chat = new ChatSession(this.options);
    const binding = bindChatWebview(panel.webview, this.extensionUri, chat, this.options.log);
    const entry = { panel, chat };
    this.open.add(entry);
    panel.onDidDispose(() => {
      binding.dispose();
      chat.dispose();
      this.open.delete(entry);
    });
    return chat;
  }

  /** The chats open in tabs now (for tests and the status of the window). */
  get chats(): readonly ChatSession[] {
    return [...this.open].map((e) => e.chat);
  }

  dispose(): void {
    for (const { panel } of [...this.open]) panel.dispose();
  }
}

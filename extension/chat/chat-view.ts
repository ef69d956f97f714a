import * as vscode from "vscode";
import type { ChatSession } from "./chat-session.js";
import { bindChatWebview } from "./chat-webview.js";

/**
 * The chat sidebar. The view is a renderer only: on every (re)open it is sent the whole conversation, then follows
 * the deltas. While a permission request waits and the view is hidden, the view shows a badge and a notification
 * offers to open it.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = "hermes.chat";
  private view: vscode.WebviewView | undefined;
  private waiting = 0;
  private notified = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: ChatSession,
    private readonly log: vscode.OutputChannel,
  ) {
    this.subscriptions.push(session.permissions.onDidChangeCount((count) => this.onPermissionsWaiting(count)));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const binding = bindChatWebview(view.webview, this.extensionUri, this.session, this.log);
    view.onDidChangeVisibility(() => this.onPermissionsWaiting(this.session.permissions.count));
    view.onDidDispose(() => {
      binding.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  /** Reveals the view (commands, notifications) and focuses what needs the user. */
  async reveal(target: "composer" | "permission" = "composer"): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
    // A freshly resolved view asks for its snapshot first; a focus request a moment later lands on the right element.
    setTimeout(() => this.session.focus(target), 100);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private onPermissionsWaiting(count: number): void {
    const hidden = !this.view?.visible;
    // Once when the view is hidden with a question waiting, and again for each new question while it stays hidden;
    // not on every change (answering one of two questions must not ask again).
    const notify = hidden && count > 0 && (!this.notified || count > this.waiting);
    this.waiting = count;
    if (!hidden || count === 0) this.notified = false;
    if (this.view)
      this.view.badge =
        count > 0 && hidden ? { value: count, tooltip: `Hermes is waiting for your permission (${count})` } : undefined;
    if (notify) {
      this.notified = true;
      void vscode.window
        .showInformationMessage("Hermes is waiting for your permission.", "Open Chat")
        .then((choice) => {
          if (choice) void this.reveal("permission");
        });
    }
  }
}

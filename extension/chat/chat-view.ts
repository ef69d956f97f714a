import * as vscode from "vscode";
import { contextMatches } from "../editor-context/context-mentions.js";
import { chatHtml } from "./chat-html.js";
import type { ChatSession } from "./chat-session.js";
import type { HostRequestHandlers } from "./webview-bridge.js";
import { WebviewBridge } from "./webview-bridge.js";
import { openLink, openLocation, searchWorkspaceFiles } from "./workspace-links.js";

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
    const assets = vscode.Uri.joinPath(this.extensionUri, "dist", "webview");
    view.webview.options = { enableScripts: true, localResourceRoots: [assets] };
    const bridge = new WebviewBridge(view.webview, this.handlers(), (message) => this.log.appendLine(message));
    view.webview.html = chatHtml(view.webview, assets);
    const subscription = this.session.subscribe((method, params) => bridge.notify(method, params));
    view.onDidChangeVisibility(() => this.onPermissionsWaiting(this.session.permissions.count));
    view.onDidDispose(() => {
      subscription.dispose();
      bridge.dispose();
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

  private handlers(): HostRequestHandlers {
    const session = this.session;
    return {
      "view/ready": () => {
        // The server starts with the view, so commands and pickers are there before the first prompt.
        void session
          .connect()
          .catch((error: Error) => this.log.appendLine(`Hermes server did not start: ${error.message}`));
        return session.snapshot;
      },
      "chat/prompt": ({ text, replaces }) => {
        // The turn runs on; the request only says it started. Failures become notices in the transcript; a retry
        // or resend that cannot start throws at once, and the view shows why.
        void (replaces ? session.resend(replaces, text) : session.prompt(text)).catch(() => undefined);
      },
      "chat/retry": () => void session.retry().catch(() => undefined),
      "checkpoint/restore": ({ itemId }) => session.restoreCheckpoint(itemId),
      "chat/cancel": () => session.cancel(),
      "chat/new": () => session.newChat(),
      "permission/answer": ({ itemId, optionId }) => session.permissions.answer(itemId, optionId),
      "review/decide": ({ proposalId, accept }) => this.session.review.decide(proposalId, accept),
      "review/openDiff": ({ proposalId }) => this.session.review.openDiff(proposalId),
      "open/location": ({ path, line }) => openLocation(path, line),
      "open/link": ({ href }) => openLink(href),
      // Editor context first (@problems, @terminal, @symbol:…), then files; a symbol query is not a file name.
      "files/search": async ({ query }) => ({
        files: [
          ...(await contextMatches(query)),
          ...(query.trim().toLowerCase().startsWith("symbol:") ? [] : await searchWorkspaceFiles(query)),
        ],
      }),
      "attachments/addFile": ({ uri }) => void session.attachments.addFile(vscode.Uri.parse(uri)),
      "attachments/addActive": () => {
        if (!session.attachments.addActive()) throw new Error("Open a file in the editor to attach it.");
      },
      "attachments/addImage": ({ name, mimeType, data }) => void session.attachments.addImage(name, mimeType, data),
      "attachments/remove": ({ id }) => session.attachments.remove(id),
      "config/set": ({ pickerId, value }) => session.setConfigOption(pickerId, value),
      "sessions/list": async () => ({ sessions: await session.listSessions() }),
      "sessions/open": async ({ sessionId }) => {
        const known = (await session.listSessions()).find((s) => s.sessionId === sessionId);
        await session.openSession(sessionId, known?.title);
      },
    };
  }
}

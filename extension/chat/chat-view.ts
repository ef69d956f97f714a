import * as vscode from "vscode";
import type { HostToWebview, WebviewToHost } from "../../webview-ui/protocol.js";
import { chatHtml } from "./chat-html.js";
import type { ChatSession } from "./chat-session.js";

/** The chat sidebar: renders the ChatSession and sends the user's prompts to it. Replays a snapshot on every (re)open. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = "hermes.chat";

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: ChatSession,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const scripts = vscode.Uri.joinPath(this.extensionUri, "dist", "webview");
    view.webview.options = { enableScripts: true, localResourceRoots: [scripts] };
    view.webview.html = chatHtml(view.webview, view.webview.asWebviewUri(vscode.Uri.joinPath(scripts, "main.js")));
    const post = (message: HostToWebview) => void view.webview.postMessage(message);
    const subscription = this.session.onChange((change) => {
      if (change.reset) post({ type: "snapshot", ...this.session.snapshot });
      if (change.entry) post({ type: "upsert", entry: change.entry });
      if (change.busy !== undefined) post({ type: "busy", busy: change.busy });
    });
    view.onDidDispose(() => subscription.dispose());
    view.webview.onDidReceiveMessage((message: WebviewToHost) => {
      if (message.type === "ready") post({ type: "snapshot", ...this.session.snapshot });
      else if (message.type === "prompt") void this.session.prompt(message.text).catch(() => undefined);
      else void this.session.cancel();
    });
  }
}

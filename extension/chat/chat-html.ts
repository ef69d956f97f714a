import { randomBytes } from "node:crypto";
import type * as vscode from "vscode";

/** The chat view's page: a strict CSP (no remote content, scripts only with a crypto-random nonce, no eval). */
export function chatHtml(webview: vscode.Webview, scriptUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString("base64");
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource} 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`, `img-src ${webview.cspSource}`, `font-src ${webview.cspSource}`].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); margin: 0; display: flex; flex-direction: column; height: 100vh; }
  #transcript { flex: 1; overflow-y: auto; padding: 8px; }
  .entry { white-space: pre-wrap; margin: 6px 0; padding: 6px 8px; border-radius: 4px; }
  .user { background: var(--vscode-input-background); }
  .thought, .tool { color: var(--vscode-descriptionForeground); font-size: 0.9em; }
  .notice { color: var(--vscode-editorWarning-foreground); }
  #composer { display: flex; gap: 4px; padding: 6px; border-top: 1px solid var(--vscode-panel-border); }
  textarea { flex: 1; resize: vertical; min-height: 2.5em; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); font-family: inherit; }
  button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 10px; cursor: pointer; }
  button:disabled { opacity: 0.5; }
</style>
</head>
<body>
<div id="transcript" aria-live="polite" aria-label="Conversation"></div>
<div id="composer">
  <textarea id="input" aria-label="Message Hermes" placeholder="Ask Hermes… (Enter to send, Shift+Enter for a new line)"></textarea>
  <button id="send" aria-label="Send">Send</button>
  <button id="cancel" aria-label="Cancel the running turn" hidden>Cancel</button>
</div>
<script nonce="${nonce}" src="${scriptUri.toString()}"></script>
</body>
</html>`;
}

import { randomBytes } from "node:crypto";
import type * as vscode from "vscode";

/** The parts of vscode.Webview the page needs (structural, so the page can be built and checked without VS Code). */
export interface PageWebview {
  readonly cspSource: string;
  asWebviewUri(uri: vscode.Uri): vscode.Uri;
}

/** The files the build writes to dist/webview/ (esbuild.config.mjs), in the order the page loads them. */
export const CHAT_ASSETS = { styles: ["codicon.css", "chat.css"], script: "main.js" } as const;

/**
 * The chat view's page. Everything it runs or shows comes from the extension's own dist/webview/ folder:
 * - `default-src 'none'`: nothing is allowed unless listed below, so no remote content, frames, workers or fetches;
 * - scripts only with this page's crypto-random nonce (no 'unsafe-eval', no inline handlers: the bundle uses
 *   addEventListener and never eval or new Function);
 * - styles and the codicon font only from the extension (webview.cspSource), no 'unsafe-inline' (the bundle sizes
 *   elements through the CSSOM, which the CSP allows);
 * - images only from the extension (codicons are a font; model output never carries <img>).
 * `assetsRoot` is dist/webview/ and must be one of the webview's localResourceRoots.
 */
export function chatHtml(webview: PageWebview, assetsRoot: vscode.Uri): string {
  const nonce = randomBytes(18).toString("base64");
  const asset = (file: string) =>
    attr(webview.asWebviewUri(assetsRoot.with({ path: `${assetsRoot.path.replace(/\/$/, "")}/${file}` })).toString());
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    // data: for the pictures tools show (browser screenshots); the host passes only known image types in base64.
    `img-src ${webview.cspSource} data:`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join("; ");
  const styles = CHAT_ASSETS.styles.map((file) => `<link rel="stylesheet" href="${asset(file)}">`).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Hermes</title>
${styles}
</head>
<body>
<script nonce="${nonce}" src="${asset(CHAT_ASSETS.script)}"></script>
</body>
</html>`;
}

function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

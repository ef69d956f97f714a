import { strict as assert } from "node:assert";
import type * as vscode from "vscode";
import { CHAT_ASSETS, chatHtml } from "../../extension/chat/chat-html.js";

const origin = "https://file+.vscode-resource.vscode-cdn.net";
function uri(path: string): vscode.Uri {
  return {
    path,
    with: (change: { path: string }) => uri(change.path),
    toString: () => `${origin}${path}`,
  } as unknown as vscode.Uri;
}
const webview = { cspSource: origin, asWebviewUri: (u: vscode.Uri) => u };

function csp(html: string): Map<string, string> {
  const content = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&quot;/g, '"');
  return new Map(
    content
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values.join(" ")]),
  );
}

describe("chat view page (CSP)", () => {
  const html = chatHtml(webview, uri("/ext/dist/webview"));
  const policy = csp(html);

  it("allows nothing by default and scripts only by this page's nonce", () => {
    assert.equal(policy.get("default-src"), "'none'");
    const nonce = /<script nonce="([^"]+)"/.exec(html)![1]!;
    assert.equal(policy.get("script-src"), `'nonce-${nonce}'`);
    assert.ok(nonce.length >= 22, "at least 128 bits of randomness");
  });

  it("never allows inline code, eval or remote hosts", () => {
    assert.doesNotMatch(
      html,
      /unsafe-inline|unsafe-eval|wasm-unsafe-eval|strict-dynamic|https?:\/\/(?!file\+\.vscode-resource)/,
    );
    for (const directive of ["style-src", "font-src"]) assert.equal(policy.get(directive), origin, directive);
    // Tools' pictures (browser screenshots) are data: images; nothing else is loaded from anywhere.
    assert.equal(policy.get("img-src"), `${origin} data:`);
    assert.doesNotMatch(html, /<style|\son\w+=|style="/, "no inline styles or handlers in the page");
  });

  it("draws a fresh nonce for every page", () => {
    const nonces = new Set(Array.from({ length: 20 }, () => /nonce="([^"]+)"/.exec(chatHtml(webview, uri("/x")))![1]));
    assert.equal(nonces.size, 20);
  });

  it("loads the bundle, its stylesheet and the codicons from the extension's dist/webview folder", () => {
    const scripts = [...html.matchAll(/<script nonce="[^"]+" src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [`${origin}/ext/dist/webview/${CHAT_ASSETS.script}`]);
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(
      styles,
      CHAT_ASSETS.styles.map((style) => `${origin}/ext/dist/webview/${style}`),
    );
  });
});

import * as vscode from "vscode";
import type { FileMatch } from "../../webview-ui/protocol.js";

const MAX_MATCHES = 50;
// Folders nobody means when they type @: build output and dependencies.
const EXCLUDE = "**/{node_modules,.git,dist,out,build,.next,target,.venv}/**";

/** Opens a file at a 1-based line, in the editor group beside nothing: the user asked to look at it. */
export async function openLocation(path: string, line?: number): Promise<void> {
  const uri = vscode.Uri.file(path);
  const position = line && line > 0 ? new vscode.Position(line - 1, 0) : undefined;
  await vscode.window.showTextDocument(uri, {
    preview: true,
    ...(position ? { selection: new vscode.Range(position, position) } : {}),
  });
}

/** Links from model output open outside the webview, and only web and mail links: never command: or file: URIs. */
export async function openLink(href: string): Promise<void> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    throw new Error(`Not a link: ${href}`);
  }
  if (!["http", "https", "mailto"].includes(uri.scheme))
    throw new Error(`Links of type ${uri.scheme}: are not opened from the chat.`);
  await vscode.env.openExternal(uri);
}

/** Workspace files whose relative path contains every character run of `query` (for @-mentions), shortest first. */
export async function searchWorkspaceFiles(query: string): Promise<FileMatch[]> {
  const needle = query.trim().toLowerCase();
  const pattern = needle && !/[*?[\]{}]/.test(needle) ? `**/*${needle.split("/").pop()}*` : "**/*";
  const uris = await vscode.workspace.findFiles(pattern, EXCLUDE, 500);
  return uris
    .map((uri) => ({ uri: uri.toString(), path: vscode.workspace.asRelativePath(uri, false) }))
    .filter((m) => m.path.toLowerCase().includes(needle))
    .sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path))
    .slice(0, MAX_MATCHES);
}

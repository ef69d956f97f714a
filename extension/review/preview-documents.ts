import * as vscode from "vscode";

export const REVIEW_SCHEME = "hermes-review";

/**
 * Read-only virtual documents for the two sides of each proposal's diff, served from memory. Nothing is written to
 * the user's files until they accept. The chat's checkpoint restore serves a checkpoint's files the same way, under
 * its own scheme.
 */
export class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(readonly scheme = REVIEW_SCHEME) {}

  uriFor(proposalId: string, side: "base" | "proposed", fileName: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, path: `/${side}/${fileName}`, query: proposalId });
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  dispose(): void {
    this.changed.dispose();
  }
}

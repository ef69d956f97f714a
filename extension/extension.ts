import type * as vscode from "vscode";

/**
 * The VS Code extension's entry point: wiring only. The chat view, the ACP client of the bundled hermes-acp
 * server and the edit review are registered here as they land (extension issue).
 */
export function activate(context: vscode.ExtensionContext): void {
  void context;
}

export function deactivate(): void {}

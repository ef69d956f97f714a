import * as vscode from "vscode";

/** ACP's auth_required: the server has no usable model (no provider, model or key in HERMES_HOME). */
const AUTH_REQUIRED = -32000;

export function isAuthRequired(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === AUTH_REQUIRED;
}

/**
 * What a user without a configured model is offered instead of a dead chat: the server's own interactive setup
 * (`--setup`, the same the ACP Registry's terminal method runs) in a VS Code terminal, with the editor's runtime as
 * Node, or the keychain-backed "Set API Key" command. The server's message says what is missing.
 */
export async function offerSetup(message: string, serverPath: string, env: Record<string, string>): Promise<void> {
  const choice = await vscode.window.showWarningMessage(message, "Set Up in Terminal", "Set API Key");
  if (choice === "Set API Key") await vscode.commands.executeCommand("hermes.setApiKey");
  if (choice === "Set Up in Terminal") openSetupTerminal(serverPath, env);
}

/** The `hermes.setup` command (and the walkthrough's first step): the server's `--setup` in a VS Code terminal. */
export function openSetupTerminal(serverPath: string, env: Record<string, string>): vscode.Terminal {
  const terminal = vscode.window.createTerminal({
    name: "Hermes setup",
    shellPath: process.execPath,
    shellArgs: [serverPath, "--setup"],
    env: { ...env, ELECTRON_RUN_AS_NODE: "1" },
  });
  terminal.show();
  return terminal;
}

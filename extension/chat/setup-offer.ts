import * as vscode from "vscode";
import { nodeRuntimeEnv } from "../acp/server-process.js";

/** ACP's auth_required: the server has no usable model (no provider, model or key in HERMES_HOME). */
const AUTH_REQUIRED = -32000;

export function isAuthRequired(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === AUTH_REQUIRED;
}

/** The `hermes.setup` command (and the walkthrough's first step): the server's `--setup` in a VS Code terminal. */
export function openSetupTerminal(serverPath: string, env: Record<string, string>): vscode.Terminal {
  const terminal = vscode.window.createTerminal({
    name: "Hermes setup",
    shellPath: process.execPath,
    shellArgs: [serverPath, "--setup"],
    env: nodeRuntimeEnv(env),
  });
  terminal.show();
  return terminal;
}

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type * as vscode from "vscode";
import { secretMasker } from "./stderr-mask.js";

/**
 * The bundled hermes-acp, run with the editor's own runtime (`process.execPath`; ELECTRON_RUN_AS_NODE makes VS
 * Code's Electron behave as Node). Its stderr goes to the "Hermes" output channel; stdout is the ACP stream.
 */
export function spawnServer(
  serverPath: string,
  cwd: string,
  env: Record<string, string>,
  log: vscode.OutputChannel,
): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [serverPath], {
    cwd,
    env: { ...process.env, ...nodeRuntimeEnv(env) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Line by line, so a key split across chunks is still caught.
  const redactSecrets = secretMasker(env);
  let partial = "";
  child.stderr.on("data", (data: Buffer) => {
    const lines = (partial + data.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) log.appendLine(redactSecrets(line));
  });
  child.on("exit", (code, signal) => {
    if (partial) log.appendLine(redactSecrets(partial));
    partial = "";
    log.appendLine(`[hermes] server exited (${signal ?? `code ${code}`})`);
  });
  return child;
}

/**
 * The environment to run our bin with the editor's own runtime (`process.execPath`): ELECTRON_RUN_AS_NODE makes VS
 * Code's Electron behave as Node. For the server, and for its `--setup` in a terminal or in the background.
 */
export function nodeRuntimeEnv(env: Record<string, string>): Record<string, string> {
  return { ...env, ELECTRON_RUN_AS_NODE: "1" };
}

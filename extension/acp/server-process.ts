import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as vscode from "vscode";

/**
 * The bundled hermes-acp, run with the editor's own runtime (`process.execPath`; ELECTRON_RUN_AS_NODE makes VS
 * Code's Electron behave as Node). Its stderr goes to the "Hermes" output channel; stdout is the ACP stream.
 */
export function spawnServer(serverPath: string, cwd: string, env: Record<string, string>, log: vscode.OutputChannel): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [serverPath], {
    cwd,
    env: { ...process.env, ...env, ELECTRON_RUN_AS_NODE: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stderr.on("data", (data: Buffer) => log.append(data.toString("utf8")));
  child.on("exit", (code, signal) => log.appendLine(`[hermes] server exited (${signal ?? `code ${code}`})`));
  return child;
}

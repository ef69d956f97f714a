import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import { ScriptedLlm } from "../../fixtures/scripted-llm.js";

export interface ScriptedHermes {
  readonly api: HermesApi;
  readonly llm: ScriptedLlm;
  /** The workspace folder the runner opened. */
  readonly workspace: string;
}

/**
 * The activated extension with a HERMES_HOME whose model is a fresh scripted endpoint. The server inherits the
 * extension host's environment when it starts, so a server an earlier suite left running (talking to that suite's
 * endpoint) is ended: the next prompt starts one that talks to this endpoint.
 */
export async function startScriptedHermes(
  options: { configured?: boolean; moreConfig?: (llm: ScriptedLlm) => string } = {},
): Promise<ScriptedHermes> {
  const llm = await ScriptedLlm.start();
  const home = mkdtempSync(join(tmpdir(), "hermes-ext-home-"));
  // `configured: false`: a first run, no model in HERMES_HOME (the scripted endpoint is there to be set up).
  if (options.configured !== false)
    writeFileSync(
      join(home, "config.yaml"),
      `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${llm.baseUrl}\n  max_retries: 0\n` +
        (options.moreConfig?.(llm) ?? ""),
    );
  process.env.HERMES_HOME = home;
  const api = (await vscode.extensions.getExtension("hermes-for-editors.hermes-editor-agent")!.activate()) as HermesApi;
  const pid = api.chat.serverPid;
  if (pid) {
    process.kill(pid);
    // serverPid goes undefined once the extension has seen the exit: only then does the next prompt start anew.
    const deadline = Date.now() + 10_000;
    while (api.chat.serverPid !== undefined) {
      if (Date.now() > deadline) throw new Error(`the earlier hermes-acp (pid ${pid}) did not stop`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return { api, llm, workspace: vscode.workspace.workspaceFolders![0]!.uri.fsPath };
}

/** Polls `check` until it holds (VS Code applies most things asynchronously), failing after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

import { spawn } from "node:child_process";
import * as vscode from "vscode";
import { nodeRuntimeEnv } from "../acp/server-process.js";

/** The answers the server's `--setup` takes as flags (its own questions, asked here with VS Code's pickers). */
export interface SetupAnswers {
  readonly provider: string;
  /** Empty: the setup's suggestion for the provider. */
  readonly model?: string;
  readonly apiKey?: string;
  readonly baseUrl?: string;
}

export interface SetupVerdict {
  readonly ok: boolean;
  /** The setup's own verdict line: `Works: <model> answered "OK".` or `Failed: …` with the likely cause. */
  readonly verdict: string;
}

/** Providers with their usual local address; the others need a key. */
const LOCAL_SERVERS: Readonly<Record<string, string | undefined>> = {
  ollama: "http://127.0.0.1:11434/v1",
  lmstudio: "http://127.0.0.1:1234/v1",
  vllm: "http://127.0.0.1:8000/v1",
  custom: undefined,
};
const PROVIDERS = [
  "openrouter",
  "openai",
  "anthropic",
  "gemini",
  "deepseek",
  "xai",
  "ollama",
  "lmstudio",
  "vllm",
  "custom",
];

/** Asks for a provider, a model and a key (or a local server's address). Undefined when the user gives up. */
export async function askSetupAnswers(): Promise<SetupAnswers | undefined> {
  const provider = await vscode.window.showQuickPick(PROVIDERS, { title: "Hermes: which provider?" });
  if (!provider) return undefined;
  const local = provider in LOCAL_SERVERS;
  const baseUrl = local
    ? await vscode.window.showInputBox({
        title: "Hermes: the server's address (OpenAI-compatible)",
        value: LOCAL_SERVERS[provider] ?? "",
        ignoreFocusOut: true,
      })
    : undefined;
  if (local && !baseUrl) return undefined;
  const model = await vscode.window.showInputBox({
    title: "Hermes: which model? (empty: the usual one for this provider)",
    ignoreFocusOut: true,
  });
  if (model === undefined) return undefined;
  const apiKey = local
    ? undefined
    : await vscode.window.showInputBox({
        title: `Hermes: your ${provider} API key`,
        password: true,
        ignoreFocusOut: true,
      });
  if (!local && !apiKey) return undefined;
  return { provider, ...(model ? { model } : {}), ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) };
}

/**
 * Runs the server's own `--setup` with the answers as flags: the key goes in through an environment variable (never
 * on a command line), the setup writes HERMES_HOME (.env mode 0600, config.yaml with its comments kept) and makes one
 * test call. The verdict is its own last word.
 */
export function runSetup(
  serverPath: string,
  env: Record<string, string>,
  answers: SetupAnswers,
): Promise<SetupVerdict> {
  const args = [serverPath, "--setup", "--provider", answers.provider, "--yes"];
  if (answers.model) args.push("--model", answers.model);
  if (answers.baseUrl) args.push("--base-url", answers.baseUrl);
  if (answers.apiKey) args.push("--api-key-env", "HERMES_SETUP_API_KEY");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        ...nodeRuntimeEnv({ ...env, ...(answers.apiKey ? { HERMES_SETUP_API_KEY: answers.apiKey } : {}) }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (output += d.toString("utf8")));
    child.on("error", (error) => resolve({ ok: false, verdict: `Failed: ${error.message}` }));
    child.on("close", (code) => {
      const lines = output.split("\n").map((l) => l.trim());
      const verdict =
        lines.filter((l) => /^(Works|Failed)\b/.test(l)).at(-1) ??
        lines.filter(Boolean).at(-1) ??
        `The setup ended with code ${code}.`;
      resolve({ ok: code === 0, verdict });
    });
  });
}

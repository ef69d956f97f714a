import type * as vscode from "vscode";

const KEY_PREFIX = "hermes.env.";
const NAMES_KEY = "hermes.secretNames";

/** Provider variables users set most; any other name can be typed. */
export const COMMON_KEY_VARIABLES = [
  "OPENROUTER_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GEMINI_API_KEY",
  "DEEPSEEK_API_KEY",
  "XAI_API_KEY",
  "NOUS_API_KEY",
];

/**
 * API keys live in VS Code's SecretStorage (the OS keychain), never in settings.json or logs. They reach the server
 * only through its environment. The names (not the values) are remembered in global state to know what to read.
 */
export class SecretEnv {
  constructor(private readonly context: vscode.ExtensionContext) {}

  async set(name: string, value: string): Promise<void> {
    await this.context.secrets.store(KEY_PREFIX + name, value);
    const names = new Set(this.context.globalState.get<string[]>(NAMES_KEY, []));
    names.add(name);
    await this.context.globalState.update(NAMES_KEY, [...names]);
  }

  async env(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const name of this.context.globalState.get<string[]>(NAMES_KEY, [])) {
      const value = await this.context.secrets.get(KEY_PREFIX + name);
      if (value) out[name] = value;
    }
    return out;
  }
}

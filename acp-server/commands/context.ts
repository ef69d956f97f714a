import { resolve } from "node:path";
import { buildSessionPrompt, ConfigError, type Env, formatContextReport, loadHermesConfig } from "../../agent/index.js";

/**
 * `hermes-editor context [dir] [--json]`: the context inspector. Shows exactly what a session opened in `dir` would
 * load — without writing anything to HERMES_HOME. Returns the exit status.
 */
export function runContext(dir: string | undefined, json: boolean, env: Env, out: (text: string) => void): number {
  let config;
  try {
    config = loadHermesConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out(`hermes-editor: ${error.message}\n`);
    return 1;
  }
  const cwd = resolve(dir ?? process.cwd());
  const { systemPrompt } = buildSessionPrompt(config, cwd, new Date());
  if (json) out(`${JSON.stringify({ ...systemPrompt.report, prompt: systemPrompt.layers }, null, 2)}\n`);
  else out(`${formatContextReport(systemPrompt.report)}\n`);
  return 0;
}

import { existsSync } from "node:fs";
import {
  ConfigError,
  type Env,
  loadHermesConfig,
  readToolSettings,
  resolveRuntimeProvider,
  sandboxStatus,
} from "../../agent/index.js";

/**
 * `hermes-editor --check`: says where the configuration is and whether a model can be reached with it, without
 * calling the model and without ever printing a key, and how the agent's commands are contained. Returns the exit
 * status: 0 when ready, 1 otherwise (commands without a sandbox are reported, not a failure: the gate still holds).
 */
export async function runCheck(env: Env, out: (line: string) => void): Promise<number> {
  let config;
  try {
    config = loadHermesConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out(`config:   ${error.problem.file}`);
    out(`problem:  ${error.message}`);
    out("Hermes ACP check FAILED");
    return 1;
  }
  out(`home:     ${config.home}`);
  out(`config:   ${config.configPath}${existsSync(config.configPath) ? "" : " (not found; defaults apply)"}`);
  try {
    out(`sandbox:  ${(await sandboxStatus(readToolSettings(config.yaml, config.env).sandbox)).summary}`);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out(`problem:  ${error.message}`);
    out("Hermes ACP check FAILED");
    return 1;
  }
  const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
  if (!resolution.ok) {
    if (config.model.provider) out(`provider: ${config.model.provider}`);
    if (config.model.model) out(`model:    ${config.model.model}`);
    out(`problem:  ${resolution.problem}`);
    out("Hermes ACP check FAILED");
    return 1;
  }
  const r = resolution.runtime;
  out(`provider: ${r.providerLabel} (${r.providerId})`);
  out(`model:    ${r.model}`);
  out(`endpoint: ${r.baseUrl} (${r.apiMode})`);
  out(`api key:  ${r.keySource ? `found in ${r.keySource}` : "none (not needed for this endpoint)"}`);
  out("Hermes ACP check OK");
  return 0;
}

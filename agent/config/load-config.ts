import { readFileSync } from "node:fs";
import { parse as parseDotenv } from "dotenv";
import { configPathOf, dotenvPathOf, type Env, resolveHermesHome } from "./hermes-home.js";
import { type ModelSettings, readModelSettings } from "./model-settings.js";
import { rememberSecretsOfEnv, rememberSecretsOfTree } from "./secret-values.js";
import { readYamlFile, type YamlFile } from "./yaml-file.js";

/** The user's Hermes configuration: HERMES_HOME, config.yaml and the environment with HERMES_HOME/.env applied. */
export interface HermesConfig {
  readonly home: string;
  readonly configPath: string;
  /** process.env over HERMES_HOME/.env: the process environment wins, as upstream. */
  readonly env: Env;
  readonly yaml: YamlFile;
  readonly model: ModelSettings;
}

/** Loads the configuration afresh. Throws ConfigError (file, line, column) when config.yaml is broken. */
export function loadHermesConfig(processEnv: Env): HermesConfig {
  const home = resolveHermesHome(processEnv);
  const configPath = configPathOf(home);
  const env = { ...readDotenv(dotenvPathOf(home)), ...definedOnly(processEnv) };
  const yaml = readYamlFile(configPath);
  // Every key read here is a value the redaction of logs and errors must know (secret-redaction.ts).
  rememberSecretsOfEnv(env);
  rememberSecretsOfTree(yaml.data);
  return { home, configPath, env, yaml, model: readModelSettings(yaml) };
}

function readDotenv(file: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(file, "utf8"));
  } catch {
    // A missing or unreadable .env is the same as an empty one: keys may come from the environment instead.
    return {};
  }
}

function definedOnly(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

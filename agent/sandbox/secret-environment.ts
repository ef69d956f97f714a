import { providerKeyVariables } from "../config/provider-catalog.js";

/**
 * Which inherited environment variables the agent's commands never see (upstream's local environment policy, made
 * stricter): every variable the provider catalog names, anything shaped like a credential, and the variables that
 * hand a command someone's identity (an SSH or GPG agent socket lets `ssh`/`git push` sign with the user's keys
 * without reading them). `terminal.env_passthrough` names the ones the user lets through on purpose.
 */
const SECRET_NAME =
  /(_API_KEY|_APIKEY|_TOKEN|_SECRET|_SECRET_KEY|_ACCESS_KEY|_PRIVATE_KEY|_PASSWORD|_PASSWD|_PASSPHRASE|_CREDENTIALS?|_AUTH)$/i;
const SECRET_PREFIX =
  /^(AWS_SECRET|AWS_SESSION|AZURE_CLIENT_SECRET|GOOGLE_APPLICATION_CREDENTIALS|VAULT_|OP_SESSION_|NPM_CONFIG__AUTH|NPM_CONFIG_\/\/)/i;
const SECRET_EXACT = new Set([
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "HF_TOKEN",
  "SUDO_PASSWORD",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
  "HERMES_API_KEY",
]);

let providerKeys: ReadonlySet<string> | undefined;

export function isSecretVariable(name: string): boolean {
  providerKeys ??= providerKeyVariables();
  return SECRET_EXACT.has(name) || SECRET_NAME.test(name) || SECRET_PREFIX.test(name) || providerKeys.has(name);
}

/** The names in `env` a command must not inherit, less those passed through. */
export function secretVariableNames(
  env: Readonly<Record<string, string | undefined>>,
  passthrough: readonly string[] = [],
): string[] {
  const allowed = new Set(passthrough);
  return Object.keys(env).filter((name) => env[name] !== undefined && !allowed.has(name) && isSecretVariable(name));
}

/** A copy of `env` without its secrets. */
export function withoutSecrets(
  env: Readonly<Record<string, string | undefined>>,
  passthrough: readonly string[] = [],
): Record<string, string | undefined> {
  const copy = { ...env };
  for (const name of secretVariableNames(env, passthrough)) delete copy[name];
  return copy;
}

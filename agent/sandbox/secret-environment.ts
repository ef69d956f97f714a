import { isSecretName } from "../config/secret-values.js";

/**
 * Which inherited environment variables the agent's commands never see (upstream's local environment policy, made
 * stricter): every name the redaction treats as a secret (config/secret-values.ts: the provider catalog's key
 * variables and the usual suffixes), a few more credential shapes, and the variables that hand a command someone's
 * identity (an SSH or GPG agent socket lets `ssh`/`git push` sign with the user's keys without reading them).
 * `terminal.env_passthrough` names the ones the user lets through on purpose.
 */
const MORE_SECRET_SUFFIXES = /(_SECRET_KEY|_PASSPHRASE|_AUTH)$/i;
const SECRET_PREFIX =
  /^(AWS_SECRET|AWS_SESSION|AZURE_CLIENT_SECRET|GOOGLE_APPLICATION_CREDENTIALS|VAULT_|OP_SESSION_|NPM_CONFIG__AUTH|NPM_CONFIG_\/\/)/i;
const IDENTITY_VARIABLES = new Set(["SSH_AUTH_SOCK", "GPG_AGENT_INFO"]);

export function isSecretVariable(name: string): boolean {
  return (
    IDENTITY_VARIABLES.has(name) || isSecretName(name) || MORE_SECRET_SUFFIXES.test(name) || SECRET_PREFIX.test(name)
  );
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

import { providerKeyVariables } from "./provider-catalog.js";

/**
 * The secret values this process holds, for redaction (secret-redaction.ts). Filled from the process environment on
 * first use and from every configuration load (HERMES_HOME/.env and config.yaml, read afresh per session), so a key
 * added later is known as soon as the server has read it.
 */

/** Variable and YAML key names that hold secrets: every provider key variable, and the usual suffixes. */
const SECRET_NAME =
  /(?:^|[_-])(?:api[_-]?key|apikey|token|secret|password|passwd|access[_-]?key|private[_-]?key|credentials?)$/i;

/** Shorter values are not redacted: "1234" or "true" would be masked all over every log. */
const MIN_SECRET_CHARS = 8;
/** Bounds the work per redaction even for a config with many keys. */
const MAX_SECRETS = 256;

export interface KnownSecret {
  readonly value: string;
  /** Where it came from (a variable or a config key), shown in place of the value. */
  readonly name: string;
}

const known = new Map<string, string>();
let sorted: KnownSecret[] | undefined;
let processEnvRead = false;

let providerVariables: ReadonlySet<string> | undefined;

export function isSecretName(name: string): boolean {
  providerVariables ??= providerKeyVariables();
  return SECRET_NAME.test(name) || providerVariables.has(name);
}

/** Remembers one secret value (trimmed; short values are ignored). */
export function rememberSecret(name: string, value: string | undefined): void {
  const trimmed = value?.trim();
  if (!trimmed || trimmed.length < MIN_SECRET_CHARS || known.has(trimmed) || known.size >= MAX_SECRETS) return;
  // GOOGLE_APPLICATION_CREDENTIALS and the like name a file: masking its path everywhere would hide paths, not keys.
  if (/^(?:\/|~\/|[A-Za-z]:\\)/.test(trimmed)) return;
  known.set(trimmed, name);
  sorted = undefined;
}

/** Remembers the values of every secret-named variable of `env`. */
export function rememberSecretsOfEnv(env: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && isSecretName(name)) rememberSecret(name, value);
}

/** Remembers every string under a secret-named key of a parsed YAML/JSON tree (`model.api_key`, fallbacks, MCP headers). */
export function rememberSecretsOfTree(tree: unknown, path = ""): void {
  if (Array.isArray(tree)) {
    tree.forEach((item, i) => rememberSecretsOfTree(item, `${path}[${i}]`));
    return;
  }
  if (typeof tree !== "object" || tree === null) return;
  for (const [key, value] of Object.entries(tree)) {
    const where = path ? `${path}.${key}` : key;
    if (typeof value === "string" && (isSecretName(key) || key.toLowerCase() === "authorization"))
      rememberSecret(where, value.replace(/^Bearer\s+/i, ""));
    else rememberSecretsOfTree(value, where);
  }
}

/** The known values, longest first (so a key containing another is replaced whole). */
export function knownSecretValues(): readonly KnownSecret[] {
  if (!processEnvRead) {
    processEnvRead = true;
    rememberSecretsOfEnv(process.env);
  }
  sorted ??= [...known].map(([value, name]) => ({ value, name })).sort((a, b) => b.value.length - a.value.length);
  return sorted;
}

/** For tests: forget everything, including that the process environment was read. */
export function forgetSecretsForTests(): void {
  known.clear();
  sorted = undefined;
  processEnvRead = false;
}

/**
 * One redaction for everything that leaves the server as diagnostics: the stderr log, errors and notices sent to the
 * client, the extension's server log channel. Two rules:
 *
 * - Known secret values (config/secret-values.ts: keys the server holds from its environment, HERMES_HOME/.env and
 *   config.yaml) are replaced wherever they appear, whatever their shape. This is the strongest rule: a custom
 *   endpoint's key has no recognisable prefix, and a provider echoing it back in an error must not put it in a log.
 * - Key shapes of the providers and services we know (and Bearer tokens, credential query parameters, key headers)
 *   are masked even when the value is not one we hold: a provider error may quote a different key, a URL may carry
 *   a token from a config the user pasted.
 *
 * A masked key keeps its vendor prefix ("sk-ant-…[redacted]") so a user can still tell which key a message is about.
 */
import { knownSecretValues } from "../config/secret-values.js";

/** Vendor prefixes whose tail is the secret. Longest first within a family, so `sk-ant-` wins over `sk-`. */
const KEY_SHAPES: readonly string[] = [
  // Anthropic, OpenRouter, OpenAI project and service-account keys, then any other `sk-` key (OpenAI, DeepSeek, Kimi…).
  String.raw`sk-ant-(?:api\d\d-|admin\d\d-)?[A-Za-z0-9_-]{8,}`,
  String.raw`sk-or-v1-[A-Za-z0-9]{8,}`,
  String.raw`sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{8,}`,
  String.raw`sk-[A-Za-z0-9_-]{16,}`,
  // Google (Gemini, Maps…) API keys: AIza and 35 characters.
  String.raw`AIza[0-9A-Za-z_-]{30,}`,
  String.raw`xai-[A-Za-z0-9]{16,}`,
  String.raw`gsk_[A-Za-z0-9]{16,}`,
  String.raw`hf_[A-Za-z0-9]{16,}`,
  String.raw`gh[opsur]_[A-Za-z0-9]{20,}`,
  String.raw`github_pat_[A-Za-z0-9_]{20,}`,
  String.raw`glpat-[A-Za-z0-9_-]{16,}`,
  // AWS access key ids (long-term AKIA, temporary ASIA).
  String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}`,
  String.raw`xox[abprs]-[A-Za-z0-9-]{10,}`,
  String.raw`nvapi-[A-Za-z0-9_-]{16,}`,
];

const SHAPE = new RegExp(`(?<![A-Za-z0-9_-])(?:${KEY_SHAPES.join("|")})`, "g");
/** The prefix kept of a masked key: everything up to and including its vendor marker. */
const SHAPE_PREFIX =
  /^(?:sk-ant-(?:api\d\d-|admin\d\d-)?|sk-or-v1-|sk-(?:proj|svcacct|admin)-|sk-|AIza|xai-|gsk_|hf_|gh[opsur]_|github_pat_|glpat-|AKIA|ASIA|xox[abprs]-|nvapi-)/;

/** `Authorization: Bearer X`, `Bearer X` anywhere, and `Basic` credentials in a header. */
const BEARER = /\b(Bearer|Basic)(\s+)[A-Za-z0-9_\-.~+/=]{8,}/gi;
/** Key headers as they are printed in logs and error dumps: `x-api-key: X`, `"api-key": "X"`, `x-goog-api-key=X`. */
const KEY_HEADER = /\b((?:x-)?(?:api-key|goog-api-key|auth-token)["']?\s*[:=]\s*["']?)[^\s"',;}]{8,}/gi;
/** Credential query parameters in URLs (`?api_key=…`, `&token=…`). */
const QUERY_SECRET =
  /([?&;](?:api[_-]?key|apikey|key|token|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|secret|password|passwd|sig|signature|x-amz-signature|x-amz-security-token)=)[^&#\s"'<>]+/gi;

const MASK = "…[redacted]";
const ANY_SHAPE = new RegExp(SHAPE.source);

/** Whether `text` holds something shaped like a known provider's or service's key (web_extract refuses such URLs). */
export function containsKeyShape(text: string): boolean {
  return ANY_SHAPE.test(text);
}

/** `text` with every known secret value and every recognised key shape masked. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  let out = redactKnownSecrets(text);
  out = out.replace(SHAPE, (key) => `${SHAPE_PREFIX.exec(key)?.[0] ?? ""}${MASK}`);
  out = out.replace(BEARER, (_m, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  out = out.replace(KEY_HEADER, (_m, name: string) => `${name}${MASK}`);
  return out.replace(QUERY_SECRET, (_m, name: string) => `${name}${MASK}`);
}

/**
 * Only the values the server holds, each replaced by the name it came from. Cheap (a few `split`s), so it can run on
 * every tool result: a command that prints the environment, or a file that holds a key, does not hand the key to the
 * model (and through it to the provider's logs). Shapes are not masked there: source files and tests legitimately
 * hold fake keys the model must read and edit exactly.
 */
export function redactKnownSecrets(text: string): string {
  let out = text;
  for (const { value, name } of knownSecretValues()) {
    if (out.includes(value)) out = out.split(value).join(`[redacted ${name}]`);
  }
  return out;
}

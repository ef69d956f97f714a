/**
 * A side entry of the front door (index.ts): the redaction every diagnostic goes through. It is its own file because
 * its user must not load the engine: acp-server's log, which runs from the process's first line (long before the
 * `initialize` reply, when the engine is not loaded yet).
 */

export { rememberSecret } from "./config/secret-values.js";
export { redactSecrets } from "./security/secret-redaction.js";

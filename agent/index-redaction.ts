/**
 * A side entry of the front door (index.ts): the redaction every diagnostic goes through. It is its own file because
 * its users must not load the engine: acp-server's log, which runs from the process's first line (long before the
 * `initialize` reply, when the engine is not loaded yet), and the VS Code extension, which masks the server's
 * stderr and would otherwise bundle the whole engine into the extension host.
 */

export { rememberSecret } from "./config/secret-values.js";
export { redactSecrets } from "./security/secret-redaction.js";

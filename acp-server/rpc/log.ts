import { redactSecrets } from "../../agent/index-redaction.js";
import { BIN_NAME } from "./version.js";

/**
 * Logging for the server. stdout belongs to JSON-RPC, so every line goes to stderr. `--verbose` adds debug lines.
 * Callers must never pass API keys; `redactSecrets` (agent/security/secret-redaction.ts, shared with errors sent to
 * the client and the extension's log channel) is a last line of defence for provider messages that echo them.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createStderrLogger(
  verbose: boolean,
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const emit = (level: string, message: string) => write(`[${BIN_NAME}] ${level} ${redactSecrets(message)}\n`);
  return {
    debug: (m) => verbose && emit("debug", m),
    info: (m) => emit("info", m),
    warn: (m) => emit("warn", m),
    error: (m) => emit("error", m),
  };
}

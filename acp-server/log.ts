/**
 * Logging for the server. stdout belongs to JSON-RPC, so every line goes to stderr. `--verbose` adds debug lines.
 * Callers must never pass API keys; `redactSecrets` is a last line of defence for provider messages that echo them.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createStderrLogger(verbose: boolean, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const emit = (level: string, message: string) => write(`[hermes-acp] ${level} ${redactSecrets(message)}\n`);
  return {
    debug: (m) => verbose && emit("debug", m),
    info: (m) => emit("info", m),
    warn: (m) => emit("warn", m),
    error: (m) => emit("error", m),
  };
}

// Long opaque tokens after common key prefixes (sk-..., sk-ant-..., Bearer ...) are masked.
const SECRET_PATTERN = /\b(sk-[A-Za-z0-9_-]{8}|Bearer\s+)[A-Za-z0-9_\-.]{8,}/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, (_m, prefix: string) => `${prefix}…[redacted]`);
}

/**
 * Masks, in the server's stderr, the keys this window handed it (`env` holds only the keychain's secrets). The server
 * redacts its own log lines; this catches what Node itself prints when it crashes (a stack trace quoting a request).
 * The extension knows these values exactly, so it needs no pattern and does not load the engine's redaction.
 */
export function secretMasker(env: Readonly<Record<string, string>>): (line: string) => string {
  // Longest first, so a key that contains another is masked whole; short values would mask ordinary words.
  const secrets = Object.entries(env)
    .filter(([, value]) => value.trim().length >= 8)
    .sort((a, b) => b[1].length - a[1].length);
  return (line) => secrets.reduce((text, [name, value]) => text.split(value).join(`[redacted ${name}]`), line);
}

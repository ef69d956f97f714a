/**
 * Payloads a command line decodes and hands to a shell: `echo <base64> | base64 -d | sh`,
 * `eval "$(echo <base64> | base64 -d)"`, `printf '\x72\x6d -rf /' | bash`, `base64 -d <<< <base64> | sh`. When the
 * encoded text is literal the detector decodes it too and the decoded line meets the hardline rules, so a
 * catastrophic command hidden this way never runs, YOLO included. (Such a line asks anyway: see command-opaque.ts.)
 *
 * Only lines with a shell consumer (a pipe into a shell, `eval`, `sh -c`, `source`) are decoded: printing a decoded
 * string is harmless.
 */
import { decodeAnsiC } from "./command-words.js";

const SHELL_CONSUMER =
  /\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|k|da|fi|c|tc)?sh\b|\beval\b|\b(?:ba|z|k|da)?sh\s+-c\b|\bsource\b|(?:^|[;&|(]\s*)\.\s/;
const BASE64 = String.raw`([A-Za-z0-9+/]{4,}={0,2})`;
const DECODE_FLAG = String.raw`(?:-[a-zA-Z]*[dD][a-zA-Z]*|--decode)`;
const PIPED_BASE64 = new RegExp(
  String.raw`\b(?:echo|printf)\s+(?:-[neE]+\s+)*['"]?${BASE64}['"]?\s*\|\s*base64\s+${DECODE_FLAG}`,
  "g",
);
const HERE_BASE64 = new RegExp(String.raw`\bbase64\s+${DECODE_FLAG}\s*<<<\s*['"]?${BASE64}`, "g");
const PRINTED = /\b(?:printf|echo)\s+(?:-[neE]+\s+)*(?:'([^']*)'|"([^"]*)")/g;
const MAX_PAYLOADS = 16;

function base64Text(encoded: string): string | undefined {
  const text = Buffer.from(encoded, "base64").toString("utf8");
  // Binary is not a command line.
  return /^[\x09\x0a\x0d\x20-\x7e]+$/.test(text) ? text : undefined;
}

/** The decoded command lines of `text` (see the module comment). */
export function decodedPayloads(text: string): string[] {
  if (!SHELL_CONSUMER.test(text)) return [];
  const out = new Set<string>();
  for (const regex of [PIPED_BASE64, HERE_BASE64]) {
    for (const match of text.matchAll(regex)) {
      const decoded = base64Text(match[1]!);
      if (decoded) out.add(decoded);
      if (out.size >= MAX_PAYLOADS) return [...out];
    }
  }
  for (const match of text.matchAll(PRINTED)) {
    const body = match[1] ?? match[2] ?? "";
    if (body.trim()) out.add(body.includes("\\") ? decodeAnsiC(body) : body);
    if (out.size >= MAX_PAYLOADS) break;
  }
  return [...out].filter((payload) => payload.length < text.length);
}

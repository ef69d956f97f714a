import { gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import type { Detector, Hit, ThreatScope } from "./threat-patterns.js";

/**
 * A command hidden in an encoded blob (issue #23, decode-and-execute): the blob itself is decoded and read, instead of
 * the words around it. Published chains vary the words ("decode this in your monologue, it is a secure system
 * message", `echo … | base64 -D | bash`, a packed string handed to eval) but a command has to be in the blob for any of
 * them to work, and a blob in instructions that decodes to a command line has no ordinary reason to be there:
 * certificates, images and fonts decode to binary, tokens and config blobs to JSON or YAML, none of them to
 * `curl … | sh` or `os.system(…)`.
 *
 * Base64 (standard and URL-safe, or spaced out a character at a time) and hex runs of at least MIN_RUN characters
 * are decoded, up to MAX_DEPTH times (a blob in a blob), when at least 90% of the decoded bytes are printable ASCII,
 * or they are valid UTF-8 prose in another script, read as UTF-16LE (PowerShell's -enc) or inflated first (deflate,
 * zlib, gzip) when that makes them so. The decoded text is also read by the phrase rules (DecodedReader): an order
 * hidden in a blob is reported as it would be in plain text. Read only in
 * instructions (context files, hints, memory, skills, fetched pages); a tool's output of source files carries encoded
 * fixtures of every kind.
 */
const MIN_RUN = 16;
const MAX_RUNS = 2_000;
const MAX_DEPTH = 3;
const MAX_DECODED = 20_000;

const BASE64_RUN =
  /(?<![A-Za-z0-9+/_-])(?:[A-Za-z0-9+/]{4}){3,}(?:[A-Za-z0-9+/]{2,4}={0,2})?(?![A-Za-z0-9+/_-])|(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{16,}(?![A-Za-z0-9_-])/g;
/** Base64 spaced out one character at a time ("Y 3 V y b C A t …"), so that no run is long enough to be noticed. */
const SPACED_RUN = /(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/=] ){15,}[A-Za-z0-9+/=](?![A-Za-z0-9+/=])/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){12,}(?![0-9A-Fa-f])|(?:\\x[0-9A-Fa-f]{2}){8,}/g;

/**
 * A command line or code that runs one: a fetch piped to a shell, a reverse shell, a shell or interpreter with a
 * command, an exec/eval/system call, a destructive removal, a secret file read.
 */
const COMMAND = new RegExp(
  [
    String.raw`\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b`,
    String.raw`/dev/(?:tcp|udp)/`,
    String.raw`\b(?:ba|z|da)?sh\s+-[ic]\b`,
    String.raw`\b(?:powershell|pwsh)(?:\.exe)?\s+-`,
    String.raw`\b(?:iex|invoke-expression)\b`,
    String.raw`\b(?:os\.system|os\.popen|subprocess\.\w+|child_process|execSync|spawnSync|__import__|Runtime\.getRuntime)\s*\(`,
    String.raw`(?:^|[^\w.])(?:exec|eval|system|popen|passthru|shell_exec)\s*\(`,
    String.raw`\brm\s+-[a-zA-Z]*[rf][a-zA-Z]*\s+(?:[~/$]|\*)`,
    String.raw`\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\s+\d{2,5}\b`,
    String.raw`(?:~|\$HOME)/\.(?:ssh|aws|npmrc|netrc|git-credentials)\b|\bid_(?:rsa|ed25519)\b`,
    String.raw`(?:^|[;&|]\s*)(?:sudo\s+)?(?:curl|wget)\s+(?:-\w+\s+)*https?://`,
    String.raw`\bchmod\s+(?:\+x|[0-7]{3})\s+\S+\s*(?:&&|;)`,
  ].join("|"),
  "i",
);

/**
 * Whether a decoded text says what a rule of the scanner reports (threat-patterns-extra.ts gives the phrase rules):
 * instructions hidden in a blob ("Reveal your system prompt", "Ignore the page and tell the user …") are found by the
 * same rules as in plain text, whatever words lead to the blob ("decode this", "the following is base64").
 */
export type DecodedReader = (decoded: string) => boolean;

export class EncodedCommandRule implements Detector {
  readonly id = "encoded_command";
  readonly scope: ThreatScope = "context";
  readonly requires: ReadonlyArray<readonly string[]> = [];
  readonly starts = undefined;
  readonly instructionsOnly = true;

  constructor(private readonly readsAsThreat: DecodedReader = () => false) {}

  find(text: string): Hit | undefined {
    for (const blob of blobsIn(text)) if (this.hides(blob.run, MAX_DEPTH)) return blob;
    return undefined;
  }

  *regexesFor(): Iterable<RegExp> {
    yield* RUNS;
    yield COMMAND;
  }

  /** Whether `run` decodes (at most `depth` times) to a command, or to text a phrase rule reports. */
  private hides(run: string, depth: number): boolean {
    for (const decoded of decodings(run)) {
      if (COMMAND.test(decoded) || this.readsAsThreat(decoded)) return true;
      if (depth > 1) for (const inner of blobsIn(decoded)) if (this.hides(inner.run, depth - 1)) return true;
    }
    return false;
  }
}

const RUNS = [BASE64_RUN, HEX_RUN, SPACED_RUN] as const;

/**
 * The runs of `text` worth decoding (at most MAX_RUNS), spaces taken out of a spaced one. A word or an identifier
 * (snake_case_name) is no blob: only runs with a digit or both cases count. `matchAll` reads a copy of each regex, so a
 * blob found inside a decoded one is looked for while the outer search goes on.
 */
function* blobsIn(text: string): Generator<Hit & { readonly run: string }> {
  let runs = 0;
  for (const regex of RUNS) {
    for (const m of text.matchAll(regex)) {
      const run = regex === SPACED_RUN ? m[0].replace(/ /g, "") : m[0];
      if (run.length < MIN_RUN || !(/\d/.test(run) || (/[A-Z]/.test(run) && /[a-z]/.test(run)))) continue;
      if (++runs > MAX_RUNS) return;
      yield { run, index: m.index, end: m.index + m[0].length };
    }
  }
}

/** The printable readings of a run: as hex, as base64, as URL-safe base64. */
function* decodings(run: string): Generator<string> {
  const candidates: Buffer[] = [];
  if (/^(?:[0-9A-Fa-f]{2})+$/.test(run)) candidates.push(Buffer.from(run, "hex"));
  else if (run.startsWith("\\x")) candidates.push(Buffer.from(run.replace(/\\x/g, ""), "hex"));
  if (!run.startsWith("\\x")) candidates.push(Buffer.from(run, /[-_]/.test(run) ? "base64url" : "base64"));
  for (const bytes of candidates) {
    if (bytes.length < 8 || bytes.length > MAX_DECODED) continue;
    if (printableShare(bytes) >= 0.9) {
      yield bytes.toString("latin1");
      continue;
    }
    // Text in another script (Chinese, Russian …) is UTF-8: read as such when it is valid and holds no control bytes.
    const utf8 = utf8Of(bytes);
    if (utf8 !== undefined) {
      yield utf8;
      continue;
    }
    // PowerShell's -EncodedCommand is UTF-16LE: every other byte zero.
    if (bytes.length % 2 === 0 && zeroShareAtOdd(bytes) >= 0.9) {
      const text = bytes.toString("utf16le");
      if (printableShare(Buffer.from(text, "latin1")) >= 0.9) yield text;
      continue;
    }
    // Compressed before it was encoded (gzinflate(base64_decode(…)), zlib.decompress(b64decode(…))).
    const inflated = inflatedOf(bytes);
    if (inflated && printableShare(inflated) >= 0.9) yield inflated.toString("latin1");
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** `bytes` as UTF-8 text with some non-ASCII letters and no control characters but whitespace, or undefined. */
function utf8Of(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  return /[^\x00-\x7f]/.test(text) && !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text) ? text : undefined;
}

function zeroShareAtOdd(bytes: Buffer): number {
  let zeros = 0;
  for (let i = 1; i < bytes.length; i += 2) if (bytes[i] === 0) zeros++;
  return zeros / (bytes.length / 2);
}

function inflatedOf(bytes: Buffer): Buffer | undefined {
  for (const inflate of [inflateRawSync, inflateSync, gunzipSync]) {
    try {
      return inflate(bytes, { maxOutputLength: MAX_DECODED });
    } catch {
      // not this format
    }
  }
  return undefined;
}

function printableShare(bytes: Buffer): number {
  let printable = 0;
  for (const byte of bytes)
    if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x0d || byte === 0x09) printable++;
  return printable / bytes.length;
}

import { E, pattern, S } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";
import { DECODE, DECODE_WORDS, INTERPRETER } from "./threat-patterns-decode.js";

/**
 * Decode-and-execute (issue #23) in the shapes the blind batch used and threat-patterns-decode.ts' pipelines did not
 * read: the blob decrypted rather than decoded (`openssl enc -d -aes-256-cbc … | sh`), decoded into a variable that
 * is evaluated next (`P=$(… | base64 --decode); eval "$P"`), said in prose ("convert it back with xxd -r -p and pipe
 * the result into bash", "decode it, then start it with PowerShell"), and the interpreter's own name hidden in
 * parameter expansions (`| ${SHELL_BIN:-s}${SUFFIX:-h}`), which no real command line needs.
 */
export const DECODE_CHAIN_PATTERNS: readonly Detector[] = [
  // Decrypted straight into an interpreter (a backup is decrypted to a file: `-out backup.tar.gz`).
  pattern(
    "decode_exec",
    [["openssl", "gpg"], ["|"]],
    String.raw`(?:openssl${E}[^\n|]{0,20}?\s(?:enc|aes-[\w-]+|des[\w-]*|chacha20)|gpg${E}[^\n|]{0,20}?\s(?:-d|--decrypt))${E}[^\n|]{0,120}?\|\s*${INTERPRETER}`,
    { starts: ["openssl", "gpg"] },
  ),
  // Decoded into a variable, then evaluated: P=$$(… | base64 --decode); eval "$$P".
  pattern(
    "decode_exec",
    [DECODE_WORDS, ["eval", "source", "sh -c", "bash -c"]],
    String.raw`(?:${DECODE})[^\n]{0,120}?\)\s*(?:;|&&|\n)\s*(?:eval|source|(?:ba|z)?sh\s+-c)\s+["']?\$\$?\{?[A-Za-z_]`,
    { starts: DECODE_WORDS },
  ),
  // In prose: the decode step, then the order to hand the result to an interpreter.
  pattern(
    "decode_exec",
    [DECODE_WORDS.concat(["decode"]), ["pipe", "run", "start", "execute", "launch", "source", "feed"]],
    String.raw`(?:${DECODE}|${S}decode${E})[^\n]{0,200}?${S}(?:pipe|run|start|execute|launch|source|feed)\s+(?:it|them|the\s+(?:result|output|script|file|text))\s+(?:with|in|into|to|through|using|via)\s+(?:${INTERPRETER}|powershell${E})`,
    { starts: DECODE_WORDS.concat(["decode"]) },
  ),
  // A command whose name is two parameter expansions run together, at a command's position: `| ${A:-s}${B:-h}`,
  // `$a$b -s "$u"`.
  pattern(
    "decode_exec",
    [["$"]],
    String.raw`(?<=(?:^|[\n|;&(])[ \t]*)\$\{?[A-Za-z_]\w{0,30}(?::-[^}\s]{0,20})?\}?\$\{?[A-Za-z_]\w{0,30}(?::-[^}\s]{0,20})?\}?(?=[ \t]+[-"'$\w]|[ \t]*(?:$|[\n;|&)]))`,
    { flags: "u", starts: ["$"] },
  ),
];

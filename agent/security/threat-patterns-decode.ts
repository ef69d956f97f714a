import { E, pattern, S, word } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";

/**
 * Obfuscated decode-and-execute (issue #23): an encoded blob decoded and handed straight to an interpreter, so that
 * nobody reading the file sees the command (`… | base64 -d | gunzip | sh`, `xxd -r -p | bash`, `printf '\x..' | sh`,
 * `eval "$(… | base64 --decode)"`, `powershell -enc …`, `exec(b64decode(…))`). Real files decode to a file or to the
 * screen (`base64 -d > key.json`, `| base64 --decode`) and install by piping a URL, not a blob, into a shell: the rule
 * is the decode step and the interpreter joined by a pipe or a substitution, whatever stands between them.
 */

// A decoding step: base64/32/16 -d, xxd -r, openssl's base64 -d, uudecode, certutil -decode, printf (perhaps through
// '%b') or echo -e of three or more hex or octal escapes, and the ciphers of a pipeline: rev, and tr between two
// letter ranges (rot13: tr 'A-Za-z' 'N-ZA-Mn-za-m'); rev only spaced as a command (`| rev |`, not a regex's `|rev|`).
export const DECODE = String.raw`(?:base(?:64|32|16)|basenc)${E}[^\n|]{0,60}?\s-(?:d|-decode|D|di|id)${E}|xxd${E}[^\n|]{0,40}?\s-r${E}|openssl${E}[^\n|]{0,60}?\s-(?:d|a|base64)${E}[^\n|]{0,40}?\s-(?:d|a|base64)${E}|uudecode${E}|certutil${E}[^\n|]{0,40}?-decode(?:hex)?${E}|printf\s+(?:-\S+\s+)?(?:['"]%[bs]['"]\s+)?['"]?(?:\\x[0-9a-f]{2}|\\[0-7]{3}){3}|rev(?<=\|\s{1,4}rev)\s|tr\s+['"]?(?:[a-z]-[a-z]){1,4}['"]?\s+['"]?[a-z]-[a-z]|echo\s+-[a-z]*e[a-z]*\s+['"]?(?:\\x[0-9a-f]{2}|\\[0-7]{3}){3}`;
export const DECODE_WORDS = [
  "base64",
  "base32",
  "base16",
  "basenc",
  "xxd",
  "openssl",
  "uudecode",
  "certutil",
  "printf",
  "echo",
  "rev ",
  "tr ",
];
// What a DECODE match begins with, for a look-behind that finds its start.
const DECODE_HEADS = "base64|base32|base16|basenc|xxd|openssl|uudecode|certutil|printf|echo|rev|tr";
// A program that runs what it reads on standard input.
// (Also through busybox, or xargs handing it the decoded text as arguments.)
export const INTERPRETER = String.raw`(?:sudo\s+(?:-\S+\s+){0,3})?(?:env\s+(?:\S+=\S+\s+){0,3})?(?:busybox\s+|xargs\s+(?:-\S+\s+){0,3})?(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:(?:ba|z|da|k|fi|tc|c)?sh|python[\d.]*|perl|ruby|node|php|pwsh|powershell|iex|invoke-expression|osascript|source\s+/dev/stdin|\.\s+/dev/stdin)${E}`;

const DECODE_EXEC: Detector[] = [
  // The decode step, then up to four more stages (rev, gunzip, tr, …), then the interpreter.
  pattern(
    "decode_exec",
    [DECODE_WORDS, ["|"]],
    // A stage may continue on the next line after a backslash (`printf … \\\n | base64 -d \\\n | sh`).
    String.raw`(?:${DECODE})(?:[^\n|]|\\\r?\n){0,300}(?:\|(?:[^\n|]|\\\r?\n){0,200}){0,4}?\|\s*${INTERPRETER}`,
    { starts: DECODE_WORDS },
  ),
  // Decoded into a file that is run next: base64 -d > /tmp/x && sh /tmp/x.
  pattern(
    "decode_exec",
    [DECODE_WORDS, [">"]],
    String.raw`(?:${DECODE})[^\n|>]{0,200}>\s*\S{1,200}\s*(?:&&|;)\s*${INTERPRETER}\s+\S`,
    { starts: DECODE_WORDS },
  ),
  // certutil writes what it decodes to its second argument: certutil -decodehex p.hex p.ps1 && powershell … p.ps1.
  pattern(
    "decode_exec",
    [["certutil"], ["decode"]],
    String.raw`certutil${E}[^\n|]{0,40}?-decode(?:hex)?\s+\S+\s+\S+\s*(?:&&?|;|\n)\s*(?:start\s+|call\s+)?(?:${INTERPRETER}|(?:cmd|cscript|wscript|mshta|rundll32|regsvr32)${E}|\S+\.(?:exe|bat|cmd|ps1|vbs)${E})`,
    { starts: ["certutil"] },
  ),
  // Decoded into a file made executable and run by its path: base64 -d > /tmp/.x; chmod +x /tmp/.x; /tmp/.x.
  pattern(
    "decode_exec",
    [DECODE_WORDS, ["chmod"]],
    String.raw`(?:${DECODE})[^\n|>]{0,200}>\s*\S{1,200}\s*(?:&&|;)\s*chmod\s+\S+\s+\S+\s*(?:&&|;)\s*(?:\./|/|~/)\S`,
    { starts: DECODE_WORDS },
  ),
  // Lua's load() of a base64 library's output: load(require('mime').unb64('…'))().
  pattern(
    "decode_exec",
    [
      ["load(", "loadstring("],
      ["unb64", "b64decode", "decode64", "from_base64", "base64"],
    ],
    String.raw`${S}(?:load|loadstring)\([^\n]{0,80}?(?:unb64|b64decode|decode64|from_base64|base64\.decode)`,
    { starts: ["load(", "loadstring("] },
  ),
  // Run from a substitution: eval "$(… | base64 -d)", bash -c "$(…)", source <(…), sh <(…).
  pattern(
    "decode_exec",
    [DECODE_WORDS],
    // (A leading word-start test: word() would read "bash" as "ba" + "sh" and refuse it.)
    String.raw`${S}(?:eval|exec|source|(?:ba|z|da|k)?sh(?:\s+-c)?|python[\d.]*\s+-c|perl\s+-e|iex)\s*(?:<<<?\s*)?["']?\s*(?:\$\(|<\(|\x60)[^\n)\x60]{0,300}?(?:${DECODE})`,
    { starts: ["eval", "exec", "source", "sh", "bash", "zsh", "dash", "ksh", "python", "perl", "iex"] },
  ),
  // A substitution standing as the command itself, at the start of a line or after ; & | ( or a backtick: its output
  // runs (\`x=$(… | base64 -d)\` and \`echo "$(…)"\` only use it).
  pattern(
    "decode_exec",
    [DECODE_WORDS, ["$("]],
    String.raw`\$\((?<=(?:^|[\n;&|(\x60])[ \t]*\$\()[^\n)]{0,300}?(?:${DECODE})`,
    { starts: ["$("] },
  ),
  // Decoded into a variable that is run next: P=$(… | base64 -d); eval "$P" — or sh -c "$P", or $P as the command.
  pattern(
    "decode_exec",
    [DECODE_WORDS, ["$"]],
    String.raw`(?:${DECODE})(?<=\w=(?:\$\(|\x60)[^\n]{0,200}?(?:${DECODE_HEADS})[^\n]{0,100})[^\n]{0,200}?(?:[;&|\n]\s*(?:eval|exec|source|iex|invoke-expression|(?:ba|z|da|k)?sh\s+-c|python[\d.]*\s+-c|perl\s+-e)\s+["']?\$\{?\w|[\x60)]\s*(?:;|&&|\n)\s*["']?\$\{?\w+\}?["']?\s*(?:$|[;&|\n]))`,
    { starts: DECODE_WORDS },
  ),
  // JavaScript's decoders run at once: eval(atob('…')), new Function(String.fromCharCode(…)).
  pattern(
    "decode_exec",
    [
      ["eval", "function", "settimeout", "execsync"],
      ["atob", "fromcharcode", "unescape", "decodeuricomponent"],
    ],
    String.raw`${word("eval|Function|setTimeout|execSync")}\s*\(\s*(?:window\.|globalThis\.)?(?:atob|unescape|String\.fromCharCode|decodeURIComponent)\s*\(`,
    { starts: ["eval", "function", "settimeout", "execsync"] },
  ),
  // PowerShell's encoded command, and FromBase64String run by Invoke-Expression.
  pattern(
    "decode_exec",
    [
      ["powershell", "pwsh"],
      ["-e", "/e"],
    ],
    String.raw`${word("powershell|pwsh")}(?:\.exe)?${E}[^\n]{0,200}?\s[-/]e(?:c|nc|ncodedcommand)?\s+['"]?[a-z0-9+/]{20,}`,
    { starts: ["powershell", "pwsh"] },
  ),
  pattern(
    "decode_exec",
    [["frombase64string"], ["iex", "invoke-expression"]],
    String.raw`frombase64string[^\n]{0,300}?${S}(?:iex|invoke-expression)${E}|${word("iex|invoke-expression")}${E}[^\n]{0,300}?frombase64string`,
    { starts: ["frombase64string", "iex", "invoke-expression"] },
  ),
  // In a language: exec(__import__('base64').b64decode(…)), eval(Buffer.from(…, 'base64')), eval(base64_decode(…)).
  pattern(
    "decode_exec",
    [
      ["exec", "eval", "function", "runin", "system", "popen", "subprocess", "spawnsync", "passthru"],
      [
        "decode",
        "decompress",
        "loads",
        "fromhex",
        "unhexlify",
        "a2b_",
        "buffer.from",
        "atob",
        "hex2bin",
        "decode64",
        "pack",
      ],
    ],
    String.raw`${word(String.raw`exec|eval|new\s+Function|Function|vm\.runIn\w+|os\.system|os\.popen|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput)|execSync|spawnSync|system|popen|shell_exec|passthru`)}\s*\(?\s*(?:compile\s*\(\s*)?(?:(?:__import__\s*\(\s*['"](?:base64|zlib|codecs|binascii|marshal|bz2|lzma|gzip)['"]\s*\)|base64|zlib|codecs|binascii|marshal|bz2|lzma|gzip|bytes|bytearray)\s*\.\s*(?:b64decode|b32decode|b16decode|b85decode|a85decode|urlsafe_b64decode|decodebytes|decompress|decode|loads|fromhex|unhexlify|a2b_base64|a2b_hex)|Buffer\.from\s*\([^)\n]{0,4000}?,\s*['"](?:base64|hex)['"]|(?:(?:gzinflate|gzuncompress|gzdecode|str_rot13|strrev|rawurldecode|urldecode)\s*\(\s*)*(?:base64_decode|hex2bin|convert_uudecode)\s*\(|(?:MIME::Base64::)?decode_base64\s*\(|pack\s*\(?\s*["']H\*?["']|Base64\.(?:decode64|strict_decode64|urlsafe_decode64))`,
    {
      starts: [
        "exec",
        "eval",
        "new",
        "function",
        "vm.runin",
        "os.system",
        "os.popen",
        "subprocess.",
        "spawnsync",
        "system",
        "popen",
        "shell_exec",
        "passthru",
      ],
    },
  ),
];

export const DECODE_PATTERNS: readonly Detector[] = DECODE_EXEC;

/**
 * What the pattern tables cannot see through. A command whose program is only known once the shell has expanded
 * something (a brace list, ANSI-C quoting, a variable, a command substitution, `eval`), or that hands generated
 * code to an interpreter (`… | sh`, `source <(…)`, a decoded payload), asks in manual mode instead of passing:
 * unknown asks.
 *
 * Where the expansion is literal the detector does it itself (`spelledOut`), so a hardline command hidden this way
 * (`{rm,-rf,/}`, `$'\x72\x6d' -rf /`, `r=rm; $r -rf /`) is still recognised and never runs, YOLO included.
 */
import type { SimpleCommand } from "./command-shell-lex.js";
import { executableWords } from "./command-structure.js";
import { hasAnsiC, programCall, wordValue } from "./command-words.js";

const set = (...items: string[]): ReadonlySet<string> => new Set(items);

const SHELLS = set("sh", "bash", "zsh", "ksh", "dash", "fish", "csh", "tcsh", "ash", "mksh", "busybox");
const INTERPRETER =
  /^(?:python[0-9.]*|py|perl[0-9.]*|ruby[0-9.]*|node|nodejs|deno|bun|php[0-9.]*|lua[0-9.]*|tclsh|osascript|pwsh|powershell|Rscript|julia|awk|gawk)$/i;
const DOWNLOADERS = set(
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "nc",
  "ncat",
  "socat",
  "lynx",
  "links",
);
const DECODERS =
  /^(?:base64|base32|basenc|xxd|uudecode|openssl|gunzip|zcat|gzip|bzip2|bzcat|xz|xzcat|unxz|zstd|rev|tr|od|printf|perl|python[0-9.]*)$/;

/** An unquoted `{a,b}` / `{1..3}` list: the shell turns one word into several. */
const BRACE_LIST = /(?:^|[^$\\])\{[^{}\s'"]*(?:,|\.\.)[^{}\s'"]*\}/;
const SUBSTITUTION = /\$\(|`/;
const VARIABLE = /\$(?:\{|[A-Za-z_@*#?!0-9-])/;

/** Why a command word is opaque, or undefined when it is plain. */
function opaqueWord(raw: string, spelled: string): string | undefined {
  // `$HOME/bin/tool` and `"$PWD"/x` name a known place; other variables could name anything.
  const value = spelled.replace(/\$(?:HOME|PWD)\b|\$\{(?:HOME|PWD)\}/g, "/known");
  if (BRACE_LIST.test(raw.replace(/'[^']*'|"[^"]*"/g, "")))
    return "brace expansion in command position (cannot be checked)";
  if (hasAnsiC(raw)) return "ANSI-C quoting in command position (cannot be checked)";
  // Checked on the raw word: a literal `$(echo rm)` is spelled out for the tables, but still asks.
  if (SUBSTITUTION.test(raw) || SUBSTITUTION.test(value))
    return "command substitution in command position (cannot be checked)";
  if (VARIABLE.test(value)) return "variable in command position (cannot be checked)";
  return undefined;
}

/** Whether an interpreter call reads its program from stdin (no script operand, or `-` / `/dev/stdin`). */
function readsProgramFromStdin(name: string, args: readonly string[]): boolean {
  const operand = args.find((a) => !a.startsWith("-") || a === "-");
  if (operand === undefined) return !args.some((a) => /^-(?:[a-z]*c|e|E|r|-eval|-version|V|-help|h)$/.test(a));
  return operand === "-" || operand === "/dev/stdin" || (name === "awk" ? false : operand.startsWith("/dev/fd/"));
}

/** The first opacity finding of a line. */
export function opaqueFinding(commands: readonly SimpleCommand[]): string | undefined {
  const calls = commands.map(programCall);
  const firstDownload = calls.findIndex((c) => DOWNLOADERS.has(c.name));
  const downloader = firstDownload >= 0;
  const decoder = calls.some(
    (c) =>
      DECODERS.test(c.name) &&
      c.args.some((a) => /^-(?:[a-z]*d[a-z]*|-decode|r|p)$/.test(a) || a === "enc" || /^(?:base64|-d)$/.test(a)),
  );
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i]!;
    const call = calls[i]!;
    for (const word of executableWords(command.words)) {
      const why = opaqueWord(word.raw, wordValue(word));
      if (why) return why;
    }
    if (call.name === "eval") return "eval of a constructed command (cannot be checked)";
    const interpreter = SHELLS.has(call.name) || INTERPRETER.test(call.name);
    const generatedArg = call.argWords.some((w) => /^[<>]\(/.test(w.raw) || w.raw.startsWith("/dev/stdin"));
    if (
      (call.name === "source" || call.name === ".") &&
      (generatedArg || call.args[0] === "/dev/stdin" || call.args[0] === "-")
    )
      return "source of generated code (cannot be checked)";
    if (interpreter && generatedArg)
      return downloader ? "pipe remote content to shell" : "interpreter runs generated code (cannot be checked)";
    if (interpreter && command.piped && readsProgramFromStdin(call.name, call.args)) {
      if (downloader) return "pipe remote content to shell";
      if (decoder) return "pipe decoded content to shell (possible command obfuscation)";
      return "pipe into an interpreter (cannot be checked)";
    }
    // `curl -o i.sh URL && sh i.sh`: running what was just downloaded.
    if (
      downloader &&
      i > firstDownload &&
      (interpreter || call.name.startsWith("./") || command.words[0]!.raw.startsWith("./"))
    ) {
      const ran = interpreter ? call.args.find((a) => !a.startsWith("-")) : call.name;
      if (ran !== undefined) return "download and run a script";
    }
  }
  return undefined;
}

/**
 * Fork bombs written as a function that calls itself twice or in the background (`f(){ f|f& };f`,
 * `bomb(){ bomb & bomb; }`). Read on text with quoted spans blanked, so prose about a fork bomb stays prose.
 */
export function isForkBomb(text: string): boolean {
  const unquoted = text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (m) => " ".repeat(m.length));
  const definitions =
    /(?:function\s+)?([^\s(){};|&<>]+)\s*\(\s*\)\s*\{([^{}]*)\}|function\s+([^\s(){};|&<>]+)\s*\{([^{}]*)\}/g;
  for (const match of unquoted.matchAll(definitions)) {
    const name = match[1] ?? match[3]!;
    const body = match[2] ?? match[4]!;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const calls = body.match(new RegExp(`(?:^|[\\s;|&])${escaped}(?=$|[\\s;|&])`, "g"))?.length ?? 0;
    if (calls >= 2 || (calls >= 1 && /&(?!&)/.test(body.replace(/&&/g, "")))) return true;
  }
  return false;
}

/** Literal assignments of the line (`r=rm`, `export r=rm`), for spelling out `$r`. */
function assignments(commands: readonly SimpleCommand[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const command of commands) {
    for (const word of command.words) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(wordValue(word));
      if (match && !/[$`]/.test(match[2]!)) out.set(match[1]!, match[2]!);
    }
  }
  return out;
}

/** `{a,b,c}` as one word → `a b c` (only the plain comma form: that is how a command line is smuggled). */
function expandBraceWord(value: string): string | undefined {
  const match = /^\{([^{}]*,[^{}]*)\}$/.exec(value);
  return match ? match[1]!.split(",").join(" ") : undefined;
}

/**
 * Each simple command spelled out as the shell would run it, one per line: words as the program receives them,
 * ANSI-C quotes decoded, literal variables and brace lists expanded. Words with spaces are single-quoted so prose
 * stays one argument. The pattern tables read this as one more variant.
 */
export function spelledOut(commands: readonly SimpleCommand[]): string {
  const vars = assignments(commands);
  const substitute = (value: string): string =>
    vars.size === 0
      ? value
      : value.replace(
          /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
          (m, a: string | undefined, b: string | undefined) => vars.get(a ?? b ?? "") ?? m,
        );
  const lines: string[] = [];
  for (const command of commands) {
    const words: string[] = [];
    for (const word of command.words) {
      const value = substitute(wordValue(word));
      const braces = word.raw === word.value ? expandBraceWord(value) : undefined;
      if (braces !== undefined) words.push(braces);
      // A quoted newline is part of the argument, not a command start.
      else words.push(/\s/.test(value) ? `'${value.replace(/'/g, "").replace(/\n/g, " ")}'` : value);
    }
    lines.push(words.join(" "));
  }
  return lines.join("\n");
}

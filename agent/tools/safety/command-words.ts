/**
 * Word-level reading of a lexed simple command, shared by the structural rules (command-word-rules.ts), the write
 * targets (command-targets.ts), the opacity findings (command-opaque.ts) and read-only mode (command-readonly.ts):
 * which program runs, behind which wrappers, with which arguments, each spelled as the shell would pass it.
 *
 * Arguments are spelled like command words (quotes, escapes, literal substitutions removed), plus ANSI-C quoting
 * (`$'\x72\x6d'`) decoded, because the shell decodes it before the program sees it.
 */
import type { ShellWord, SimpleCommand } from "./command-shell-lex.js";
import { basename, deobfuscateWord, executableWords } from "./command-structure.js";

export interface ProgramCall {
  /** Lower-cased basename of the program that runs (`/usr/bin/rm` → `rm`); empty when nothing runs. */
  readonly name: string;
  /** The program word itself. */
  readonly word: ShellWord | undefined;
  /** Lower-cased basenames of the wrappers in front of it (`sudo`, `env`, `xargs`…). */
  readonly wrappers: readonly string[];
  /** The words after the program, as lexed. */
  readonly argWords: readonly ShellWord[];
  /** The same, spelled as the program receives them. */
  readonly args: readonly string[];
}

const C_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The text of one `$'…'` body as bash decodes it (`\xHH`, `\NNN`, `\uHHHH`, `\cX`, the C escapes). */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_m, esc: string) => {
      const head = esc[0]!;
      if (head === "x" || head === "u" || head === "U") return String.fromCodePoint(parseInt(esc.slice(1), 16));
      if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
      if (head === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return C_ESCAPES[esc] ?? `\\${esc}`;
    },
  );
}

const ANSI_C = /\$'((?:[^'\\]|\\.)*)'/gs;

/** Whether the word uses ANSI-C quoting. */
export function hasAnsiC(raw: string): boolean {
  return /\$'/.test(raw);
}

/** `raw` with every `$'…'` replaced by an ordinary single-quoted string of its decoded text. */
export function decodeAnsiCQuotes(raw: string): string {
  if (!hasAnsiC(raw)) return raw;
  return raw.replace(ANSI_C, (_m, body: string) => `'${decodeAnsiC(body).replace(/'/g, `'\\''`)}'`);
}

const spelled = new WeakMap<ShellWord, string>();

/** A word as the program receives it (for detection only; nothing is expanded but literal forms). */
export function wordValue(word: ShellWord): string {
  let value = spelled.get(word);
  if (value === undefined) {
    value = deobfuscateWord(decodeAnsiCQuotes(word.raw));
    spelled.set(word, value);
  }
  return value;
}

/** The program a simple command runs, its wrappers and its arguments. */
export function programCall(command: SimpleCommand): ProgramCall {
  const exec = executableWords(command.words);
  const word = exec[exec.length - 1];
  if (!word) return { name: "", word: undefined, wrappers: [], argWords: [], args: [] };
  const wrappers = exec.slice(0, -1).map((w) => basename(wordValue(w)).toLowerCase());
  const argWords = command.words.slice(command.words.indexOf(word) + 1);
  return { name: basename(wordValue(word)).toLowerCase(), word, wrappers, argWords, args: argWords.map(wordValue) };
}

/** Whether a short-option bundle (`-rf`, `-uf`) or its long form is among the options before `--`. */
export function hasOption(args: readonly string[], letters: string, long: readonly string[] = []): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg.startsWith("--")) {
      if (long.some((name) => arg === name || arg.startsWith(`${name}=`))) return true;
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1 && [...arg.slice(1)].some((c) => letters.includes(c))) return true;
  }
  return false;
}

/** Operands: the words that are not options (GNU tools accept options anywhere before `--`). */
export function operands(args: readonly string[], withValue: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  let optionsEnd = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (optionsEnd || arg === "-" || !arg.startsWith("-")) {
      out.push(arg);
      continue;
    }
    if (arg === "--") {
      optionsEnd = true;
      continue;
    }
    if (withValue.has(arg)) i++;
  }
  return out;
}

export interface PathContext {
  readonly home: string;
  /** The directory relative paths start from, or undefined when a `cd` made it unknowable. */
  readonly cwd: string | undefined;
}

/**
 * An argument as an absolute path (`~`, `$HOME`, `${HOME}`, `$PWD` expanded, `..` folded), or undefined when it
 * depends on something the detector cannot know (another variable, a substitution, an unknown working directory).
 */
export function absolutePath(value: string, context: PathContext): string | undefined {
  let path = value.replace(/^(?:~|\$HOME\b|\$\{HOME\})(?=\/|$)/, context.home);
  if (context.cwd) path = path.replace(/^(?:\$PWD\b|\$\{PWD\})(?=\/|$)/, context.cwd);
  if (/[$`]/.test(path) || path.startsWith("~")) return undefined;
  if (!path.startsWith("/")) {
    if (!context.cwd) return undefined;
    path = `${context.cwd}/${path}`;
  }
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

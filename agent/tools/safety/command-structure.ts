/**
 * Structural reading of one simple command (hermes-behaviour.md §6.3 "Structural findings"), first half: which words
 * are at executable position once wrappers such as `sudo -u root` or `env A=1` are peeled, and how a word reads once
 * its quotes and literal substitutions are undone. Whether the executable runs code it was handed inline is the
 * other half (command-inline-code.ts).
 */
import type { ShellWord } from "./command-shell-lex.js";

interface Wrapper {
  /** Options whose value is the next word. */
  readonly withArg: ReadonlySet<string>;
  /** Options after which nothing is executed (`command -v x` only prints a path). */
  readonly query?: ReadonlySet<string>;
  /** Positional words before the wrapped command (`timeout 5 cmd`). */
  readonly positional?: number;
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items);

/**
 * Commands that run another command. Upstream's `_CMDPOS` peels sudo/env/exec/nohup/setsid/time; the others and the
 * option tables follow its later `_COMMAND_WRAPPER_*` lists. `xargs` is an addition: `xargs sh -c '…'` runs a shell.
 */
const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    withArg: set(
      "-C",
      "-c",
      "--close-from",
      "-D",
      "--chdir",
      "-g",
      "--group",
      "-h",
      "--host",
      "-p",
      "--prompt",
      "-R",
      "--chroot",
      "-r",
      "--role",
      "-t",
      "--type",
      "-T",
      "--command-timeout",
      "-U",
      "--other-user",
      "-u",
      "--user",
    ),
  },
  env: { withArg: set("-a", "--argv0", "-C", "--chdir", "-u", "--unset") },
  exec: { withArg: set("-a") },
  nohup: { withArg: set() },
  setsid: { withArg: set() },
  time: { withArg: set("-f", "--format", "-o", "--output") },
  command: { withArg: set(), query: set("-v", "-V") },
  builtin: { withArg: set() },
  nice: { withArg: set("-n", "--adjustment") },
  timeout: { withArg: set("-k", "--kill-after", "-s", "--signal"), positional: 1 },
  stdbuf: { withArg: set("-e", "--error", "-i", "--input", "-o", "--output") },
  ionice: {
    withArg: set("-c", "--class", "-n", "--classdata"),
    query: set("-p", "--pid", "-P", "--pgid", "-u", "--uid"),
  },
  chrt: { withArg: set(), query: set("-p", "--pid"), positional: 1 },
  taskset: { withArg: set(), query: set("-p", "--pid"), positional: 1 },
  chroot: { withArg: set("--groups", "--userspec"), positional: 1 },
  xargs: {
    withArg: set(
      "-a",
      "--arg-file",
      "-d",
      "--delimiter",
      "-E",
      "-I",
      "-L",
      "--max-lines",
      "-n",
      "--max-args",
      "-P",
      "--max-procs",
      "-s",
      "--max-chars",
    ),
  },
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SIMPLE_LITERAL = String.raw`[A-Za-z0-9_./:@%+=,-]+`;
// `$(echo rm)`, `$(printf %s rm)` and their backtick forms print a literal: the word runs that literal.
const LITERAL_SUBSTITUTION = new RegExp(
  String.raw`\$\(\s*(?:echo(?:\s+-[neE]+)*|printf(?:\s+%s)?)\s+(['"]?)(${SIMPLE_LITERAL})\1\s*\)` +
    String.raw`|\`\s*(?:echo(?:\s+-[neE]+)*|printf(?:\s+%s)?)\s+(['"]?)(${SIMPLE_LITERAL})\3\s*\``,
  "g",
);

// `${x/a/rm}` and `${x:-rm}` (upstream's `_PARAM_REPLACEMENT_RE` / `_PARAM_DEFAULT_RE`). Unlike upstream, no part may
// contain `$` or `{`: otherwise each `${` of `${a${a${a…` rescans the rest of the word (quadratic), and a nested
// expansion has no literal text to recover anyway.
const PARAM_REPLACEMENT = /\$\{[^${}/\s]+\/[^${}/]*\/([^${}]*)\}/g;
const PARAM_DEFAULT = /\$\{[^${}:\s]+:-([^${}]*)\}/g;

/** Remove quotes and escapes the way the shell reads a word (substitutions are left as written). */
function unquote(word: string): string {
  if (!/['"\\]/.test(word)) return word;
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
    } else if (c === "\\" && i + 1 < word.length) {
      out += word[++i];
    } else if (c === quote) {
      quote = undefined;
    } else if (!quote && (c === "'" || c === '"')) {
      quote = c;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * How the shell would spell a word at command position, for detection only: quotes and escapes removed (`"rm"`,
 * `r\m`), literal echo/printf substitutions and `${x:-rm}` / `${x/a/rm}` expansions replaced by their text.
 */
export function deobfuscateWord(raw: string): string {
  // Nothing to undo without quotes, escapes or expansions (the common case).
  if (!/['"\\$`]/.test(raw)) return raw;
  let word = raw;
  for (let round = 0; round < 2; round++) {
    const next = unquote(
      word
        .replace(LITERAL_SUBSTITUTION, (_m, _q1, a: string | undefined, _q2, b: string | undefined) => a ?? b ?? "")
        .replace(PARAM_REPLACEMENT, "$1")
        .replace(PARAM_DEFAULT, "$1"),
    );
    if (next === word) break;
    word = next;
  }
  return word;
}

export function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

// Words are read several times per analysis (marking, inspection); a nested substitution's word can be as long
// as the command, so its spelling is worked out once.
const plainSpelling = new WeakMap<ShellWord, string>();

/** deobfuscateWord of a lexed word, remembered. */
export function plainWord(word: ShellWord): string {
  let plain = plainSpelling.get(word);
  if (plain === undefined) {
    plain = deobfuscateWord(word.raw);
    plainSpelling.set(word, plain);
  }
  return plain;
}

/**
 * The words at executable position: each wrapper, then the command it runs (the last one). Empty when the command
 * is only assignments, or a wrapper that does not run anything (`command -v rm`).
 */
export function executableWords(words: readonly ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  let wrapper: Wrapper | undefined;
  let options = true;
  let skipValue = false;
  let positional = 0;
  for (const word of words) {
    const value = plainWord(word);
    if (skipValue) {
      skipValue = false;
      continue;
    }
    if (wrapper && options && value === "--") {
      options = false;
      continue;
    }
    if (wrapper && options && value.startsWith("-") && value.length > 1) {
      const option = value.split("=", 1)[0]!;
      if (wrapper.query?.has(option)) return [];
      skipValue = !value.includes("=") && wrapper.withArg.has(option);
      continue;
    }
    if (positional > 0) {
      positional--;
      continue;
    }
    if (ASSIGNMENT.test(word.raw)) continue;
    out.push(word);
    const next = WRAPPERS[basename(value).toLowerCase()];
    if (!next) break;
    wrapper = next;
    options = true;
    positional = next.positional ?? 0;
  }
  return out;
}

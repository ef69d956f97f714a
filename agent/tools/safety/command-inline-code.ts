/**
 * Structural reading of one simple command (hermes-behaviour.md §6.3 "Structural findings"), second half: whether the
 * executable (found by command-structure.ts) runs code it was handed inline (`python -c`, `node -e`, `bash -lc`,
 * `rg --pre`). The inline code is returned as a payload so the caller can scan a command line as a command of its own.
 */
import type { SimpleCommand } from "./command-shell-lex.js";
import { basename, executableWords, plainWord } from "./command-structure.js";

export interface StructuralFinding {
  readonly description: string;
  /** The inline program or code, when the option carried one. */
  readonly payload?: string;
  /**
   * Whether the payload is a command line (`sh -c`, `rg --pre prog`) rather than code in another language
   * (`python -c`). Only command lines are worth scanning as commands: interpreter code is already in the command's
   * own text for every unanchored rule, and reading it as shell only invents command starts (`perl -e
   * 'shutdown($sock, 2)'` would be a hardline shutdown).
   */
  readonly commandLine: boolean;
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items);

type Family = "python" | "node" | "perl" | "ruby" | "php" | "powershell";

const FAMILIES: readonly (readonly [Family, RegExp])[] = [
  ["python", /^(?:py(?:\.exe)?|python[23]?(?:\.\d+)*(?:\.exe)?)$/],
  ["node", /^node(?:js)?(?:\.exe)?$/],
  ["perl", /^perl[0-9]*(?:\.\d+)*(?:\.exe)?$/],
  ["ruby", /^ruby[0-9.]*(?:\.exe)?$/],
  ["php", /^php(?:\.exe)?$/],
  ["powershell", /^(?:powershell|pwsh)(?:\.exe)?$/],
];

/** Options that run inline code. `perl -E` is an addition to upstream's list: it is `-e` with features enabled. */
const EXEC_FLAGS: Readonly<Record<Family, ReadonlySet<string>>> = {
  python: set("-c"),
  node: set("-e", "--eval", "-p", "--print"),
  perl: set("-e", "-E", "--eval"),
  ruby: set("-e"),
  php: set("-r"),
  powershell: set("-command", "-c", "-file", "-f"),
};

/** Options that take the next word as their value, so that word is not read as an option. */
const WITH_ARG: Readonly<Record<Family, ReadonlySet<string>>> = {
  python: set("-W", "-X", "--check-hash-based-pycs"),
  node: set(
    "-C",
    "--conditions",
    "--cpu-prof-dir",
    "--diagnostic-dir",
    "--icu-data-dir",
    "--import",
    "--loader",
    "--openssl-config",
    "--require",
    "--title",
    "-r",
  ),
  perl: set("-0", "-F", "-I", "-M", "-m", "-x"),
  ruby: set("-C", "-E", "-F", "-I", "-K", "-r"),
  php: set("-c", "-d", "-z"),
  powershell: set(
    "-configurationname",
    "-custompipename",
    "-executionpolicy",
    "-inputformat",
    "-outputformat",
    "-settingsfile",
    "-version",
    "-windowstyle",
    "-workingdirectory",
  ),
};

function interpreterFamily(name: string): Family | undefined {
  return FAMILIES.find(([, regex]) => regex.test(name))?.[0];
}

function partition(token: string): { option: string; value: string | undefined } {
  const at = token.indexOf("=");
  return at < 0 ? { option: token, value: undefined } : { option: token.slice(0, at), value: token.slice(at + 1) };
}

/** The inline code of an interpreter invocation, or undefined when it runs no inline code. */
function interpreterPayload(family: Family, args: readonly string[]): { payload: string } | undefined {
  const flags = EXEC_FLAGS[family];
  const withArg = WITH_ARG[family];
  const powershell = family === "powershell";
  for (let k = 0; k < args.length; k++) {
    const token = args[k]!;
    if (token === "--" || (!powershell && !token.startsWith("-"))) break;
    const { option, value } = partition(token);
    const comparable = powershell ? option.toLowerCase() : option;
    if (flags.has(comparable)) return { payload: value ?? args[k + 1] ?? "" };
    // `-Wonce` / `ruby -rjson` carry an attached option value; they are not bundles of single-letter options.
    const attachedValue = [...withArg].some(
      (short) => !short.startsWith("--") && option.startsWith(short) && option.length > short.length,
    );
    if (!powershell && !option.startsWith("--") && option.length > 2 && !attachedValue) {
      for (let at = 1; at < option.length; at++) {
        if (flags.has(`-${option[at]}`)) {
          return { payload: at === option.length - 1 ? (args[k + 1] ?? "") : token.slice(at + 1) };
        }
      }
    }
    if (withArg.has(comparable) && value === undefined) k++;
  }
  return undefined;
}

const SHELLS = set("bash", "sh", "zsh", "ksh", "dash");
const SHELL_OPTIONS_WITH_ARG = set("-O", "+O", "-o", "+o", "--init-file", "--rcfile");
const SHELL_SHORT_LETTERS = set(..."ilrsDcabefhkmnptuvxBCEHPTOo");

/** Port of upstream's `_bash_exec_payload`: whether `-c` occurs (alone or bundled, `-lc`) and the string it runs. */
function shellPayload(args: readonly string[]): { payload: string } | undefined {
  for (let k = 0; k < args.length; ) {
    const token = args[k]!;
    if (token === "--" || !(token.startsWith("-") || token.startsWith("+"))) break;
    if (SHELL_OPTIONS_WITH_ARG.has(token)) {
      k += 2;
      continue;
    }
    const letters = [...token.slice(1)];
    if (token.startsWith("--") || !letters.every((letter) => SHELL_SHORT_LETTERS.has(letter))) {
      k++;
      continue;
    }
    const consumed = letters.includes("O") || letters.includes("o") ? 1 : 0;
    if (letters.includes("c")) return { payload: args[k + 1 + consumed] ?? "" };
    k += 1 + consumed;
  }
  return undefined;
}

const READ_TOOL_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  sort: set("--compress-program"),
  rg: set("--pre", "--hostname-bin"),
  ag: set("--pager"),
  man: set("--pager", "--html", "-P", "-H"),
};
const READ_TOOL_LONG_WITH_ARG: Readonly<Record<string, ReadonlySet<string>>> = {
  rg: set(
    "--after-context",
    "--before-context",
    "--color",
    "--colors",
    "--context",
    "--context-separator",
    "--dfa-size-limit",
    "--encoding",
    "--engine",
    "--field-context-separator",
    "--field-match-separator",
    "--file",
    "--generate",
    "--glob",
    "--hostname-bin",
    "--hyperlink-format",
    "--iglob",
    "--ignore-file",
    "--max-columns",
    "--max-count",
    "--max-depth",
    "--max-filesize",
    "--path-separator",
    "--pre",
    "--pre-glob",
    "--regex-size-limit",
    "--regexp",
    "--replace",
    "--sort",
    "--sortr",
    "--threads",
    "--type",
    "--type-add",
    "--type-clear",
    "--type-not",
  ),
  sort: set(
    "--batch-size",
    "--buffer-size",
    "--compress-program",
    "--field-separator",
    "--files0-from",
    "--key",
    "--output",
    "--parallel",
    "--random-source",
    "--sort",
    "--temporary-directory",
  ),
  man: set(
    "--config-file",
    "--encoding",
    "--extension",
    "--locale",
    "--manpath",
    "--pager",
    "--preprocessor",
    "--prompt",
    "--recode",
    "--sections",
    "--systems",
  ),
  ag: set(
    "--ackmate-dir-filter",
    "--color-line-number",
    "--color-match",
    "--color-path",
    "--depth",
    "--filename-pattern",
    "--file-search-regex",
    "--ignore",
    "--ignore-dir",
    "--max-count",
    "--pager",
    "--path-to-ignore",
    "--width",
    "--workers",
  ),
};
const READ_TOOL_SHORT_WITH_ARG: Readonly<Record<string, string>> = {
  rg: "efEmjgdtTABCMr",
  sort: "koStT",
  man: "CRLmMSserEPp",
  ag: "gGmpW",
};

/** Port of upstream's `_read_tool_exec_flag`: the program-running option of a read-only tool and its program. */
function readToolProgram(tool: string, args: readonly string[]): { option: string; program: string } | undefined {
  const flags = READ_TOOL_FLAGS[tool]!;
  for (let k = 0; k < args.length; ) {
    const token = args[k]!;
    if (token === "--") break;
    let { option, value } = partition(token);
    let matched = flags.has(option) ? option : undefined;
    if (tool === "man" && (token.startsWith("-P") || token.startsWith("-H")) && token.length > 2) {
      matched = token.slice(0, 2);
      value = token.slice(2);
    }
    if (matched) {
      const program = value ?? args[k + 1];
      if (program) return { option: matched, program };
      k += value === undefined ? 2 : 1;
    } else if (READ_TOOL_LONG_WITH_ARG[tool]!.has(option) && value === undefined) {
      k += 2;
    } else if (token.startsWith("-") && !token.startsWith("--") && token.length > 1) {
      // In a bundle the first option that takes a value owns the rest of the word, or the next word when last.
      const shorts = READ_TOOL_SHORT_WITH_ARG[tool]!;
      const owner = [...token.slice(1)].findIndex((letter) => shorts.includes(letter));
      k += owner >= 0 && owner === token.length - 2 ? 2 : 1;
    } else {
      k++;
    }
  }
  return undefined;
}

/** The structural finding of one simple command, if any (upstream's `_execution_flag_findings`, per command). */
export function inspectCommand(command: SimpleCommand): StructuralFinding | undefined {
  const executables = executableWords(command.words);
  const executable = executables[executables.length - 1];
  if (!executable) return undefined;
  const name = basename(plainWord(executable)).toLowerCase();
  const args = command.words.slice(command.words.indexOf(executable) + 1).map((word) => word.value);
  const family = interpreterFamily(name);
  if (family) {
    const inline = interpreterPayload(family, args);
    if (inline) return { description: "script execution via -e/-c flag", payload: inline.payload, commandLine: false };
    if (command.heredoc) return { description: "script execution via heredoc", commandLine: false };
    return undefined;
  }
  if (SHELLS.has(name)) {
    const inline = shellPayload(args);
    if (inline) return { description: "shell command via -c/-lc flag", payload: inline.payload, commandLine: true };
  }
  if (READ_TOOL_FLAGS[name]) {
    const found = readToolProgram(name, args);
    if (found) {
      const description = `arbitrary program execution via ${name} ${found.option}`;
      return { description, payload: found.program, commandLine: true };
    }
  }
  return undefined;
}

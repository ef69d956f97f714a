/**
 * Whether a command line only reads, for read-only mode when no OS sandbox holds the filesystem read-only (then
 * this is the only wall, so it is strict: anything it cannot show to be a read is a write).
 *
 * The line is lexed like the shell does: every control operator (`;`, `&`, `&&`, `||`, `|`, `|&`, newlines) starts a
 * command that must itself be read-only; any redirection into a file is a write (`/dev/null` excepted); command and
 * process substitutions, wrappers (`env cmd`, `nice`, `xargs`, `sudo`, `timeout`…) and words the detector cannot
 * spell (variables, brace lists, ANSI-C quoting) are not read-only. Options that make a reader write or run
 * something (`sort -o`, `find -fprint`, `git diff --output`, `git grep -O`, `rg --pre`) are refused per program.
 */

import { gitSubcommand } from "./command-git-rules.js";
import { preNormalise } from "./command-normalise.js";
import { lexShellWithRedirections, type Redirection } from "./command-shell-lex.js";
import { operands, type ProgramCall, programCall, wordValue } from "./command-words.js";

const READ_ONLY_PROGRAMS = new Set(
  (
    "ls ll la dir cat head tail less more wc grep egrep fgrep rg ag fd find tree pwd echo printf which whereis type file stat du df " +
    "date whoami id uname env printenv sort uniq cut tr diff cmp sha1sum sha256sum sha512sum md5sum cksum realpath readlink " +
    "dirname basename jq yq true false test [ nl column comm paste fold expand unexpand od hexdump xxd strings locale " +
    "hostname groups nproc arch tty seq"
  ).split(" "),
);

const READ_ONLY_GIT = new Set(
  "status log diff show rev-parse ls-files ls-tree ls-remote blame grep describe shortlog reflog remote config branch tag stash cat-file rev-list merge-base name-rev show-ref for-each-ref count-objects whatchanged version help".split(
    " ",
  ),
);

/** Options that make an otherwise read-only program write a file or run another program. */
const WRITING_OPTIONS: Readonly<Record<string, RegExp>> = {
  find: /^-(?:delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/,
  sort: /^(?:-[a-zA-Z]*o.*|--output(?:=.*)?|--compress-program(?:=.*)?)$/,
  rg: /^--(?:pre|hostname-bin)(?:=.*)?$/,
  ag: /^--pager(?:=.*)?$/,
  fd: /^(?:-[a-zA-Z]*[xX]|--exec|--exec-batch)(?:=.*)?$/,
  tree: /^(?:-o|--output)(?:=.*)?$|^-o./,
  file: /^(?:-C|--compile)$/,
  date: /^(?:-s|--set)(?:=.*)?$|^-s./,
  yq: /^(?:-i|--inplace)$/,
  xxd: /^-r/,
  less: /^(?:-o|-O|--log-file|--LOG-FILE)(?:=.*)?$|^-[oO]./,
  more: /^-/,
};

/** The reading forms of git subcommands that can also write. */
function gitReadOnly(args: readonly string[]): boolean {
  const [sub, rest] = gitSubcommand(args);
  if (!READ_ONLY_GIT.has(sub)) return false;
  if (args.some((a) => /^--(?:output|ext-diff|exec-path|upload-pack|receive-pack)(?:=|$)/.test(a))) return false;
  // `git -c core.pager=…` and `--git-dir` elsewhere can point git at a program or another repository's hooks.
  if (args.slice(0, args.indexOf(sub)).some((a) => a === "-c" || a.startsWith("--config-env"))) return false;
  const positional = operands(rest);
  switch (sub) {
    case "grep":
      return !rest.some((a) => /^(?:-O|--open-files-in-pager)/.test(a));
    case "config":
      return (
        rest.some((a) => /^(?:--get|--get-all|--get-regexp|--get-urlmatch|-l|--list)$/.test(a)) ||
        positional[0] === "get" ||
        positional[0] === "list"
      );
    case "remote":
      return positional.length === 0 || positional[0] === "show" || positional[0] === "get-url";
    case "branch":
    case "tag":
      return (
        positional.length === 0 ||
        rest.some((a) => a === "-l" || a === "--list" || a === "--contains" || a === "--merged")
      );
    case "stash":
      return positional[0] === "list" || positional[0] === "show";
    case "reflog":
      return positional.length === 0 || positional[0] === "show";
    default:
      return true;
  }
}

function callReadOnly(call: ProgramCall): boolean {
  if (call.wrappers.length > 0 || !call.word) return false;
  // A program word the shell would expand (a variable, a brace list, ANSI-C quoting) is not known to be a reader.
  if (/[${}`'"\\]/.test(call.word.raw)) return false;
  if (call.name === "git") return gitReadOnly(call.args);
  if (!READ_ONLY_PROGRAMS.has(call.name)) return false;
  const writing = WRITING_OPTIONS[call.name];
  if (writing && call.args.some((a) => writing.test(a))) return false;
  // `uniq in out` writes out.
  if (call.name === "uniq" && operands(call.args).length > 1) return false;
  return true;
}

const INPUT_OPERATORS = new Set(["<", "<<", "<<-", "<<<"]);
const DISCARDED = /^\/dev\/null$/;

function redirectionReadOnly(redirection: Redirection): boolean {
  if (INPUT_OPERATORS.has(redirection.operator)) return true;
  const target = redirection.target ? wordValue(redirection.target) : "";
  // `2>&1`, `>&2`, `<&0`, `>&-`: descriptor duplication writes no file.
  if ((redirection.operator === ">&" || redirection.operator === "<&") && /^(?:\d+|-)$/.test(target)) return true;
  return (
    (redirection.operator === ">" || redirection.operator === ">>" || redirection.operator === "&>") &&
    DISCARDED.test(target)
  );
}

/** Whether a shell command only reads (for read-only mode without a sandbox). Unclear means it writes. */
export function isReadOnlyCommand(command: string): boolean {
  const text = preNormalise(command);
  if (/\$\(|`|<\(|>\(/.test(text)) return false;
  const { commands, redirections } = lexShellWithRedirections(text);
  if (commands.length === 0) return false;
  return redirections.every(redirectionReadOnly) && commands.every((command) => callReadOnly(programCall(command)));
}

/**
 * Upstream's dangerous-command tables (hermes-behaviour.md §6.3, `tools/approval.py` BASELINE): 12 HARDLINE rules
 * (never run) and 70 DANGEROUS rules (need approval), in upstream's order. They are matched against normalised,
 * lower-cased command variants (flags keep their case, see command-normalise.ts), case-insensitively with dotAll.
 *
 * Each rule is written as upstream writes it, but cut at its unbounded gaps so command-match.ts can search it in
 * linear time (a direct port takes seconds on adversarial input). Where a piece had to be re-spelled to stay linear
 * the comment says so and why the language it matches is unchanged; the few real changes are marked "Deviation".
 */
import {
  ANY,
  chainPattern,
  type Gap,
  NO_PIPE,
  type PlannedPattern,
  plainPattern,
  runPattern,
  SAME_COMMAND,
  SAME_LINE,
} from "./command-match.js";

const R = String.raw;
const FLAGS = "is";

export interface CommandPattern extends PlannedPattern {
  readonly description: string;
}

function rule(description: string, source: string, flags = FLAGS): CommandPattern {
  return { description, ...plainPattern(source, flags) };
}

function chain(description: string, pieces: readonly (string | Gap)[], flags = FLAGS): CommandPattern {
  return { description, ...chainPattern(pieces, flags) };
}

function run(description: string, lead: string, options: string, target: string, flags = FLAGS): CommandPattern {
  return { description, ...runPattern(lead, options, target, flags) };
}

/**
 * Command position (`_CMDPOS`): start of text, a newline, or a `$(` / backtick opener, then optional `sudo` with
 * flags, `env` with assignments, and exec/nohup/setsid/time wrappers. `;`, `&`, `|`, `(` and `{` starts are
 * exposed by the variant builder, which puts a newline before each real command start.
 * Re-spelled to stay linear, same matches: whitespace here is horizontal (`[^\S\n]`) because a newline is itself a
 * start, so any match that crossed one also matches from it; upstream's trailing `\s*` is dropped because every
 * wrapper already ends in whitespace. Option and assignment words cannot contain a backtick or `(`, so a command
 * start inside one cannot make every later start rescan the same words (such a word is a command substitution,
 * whose command the variant builder marks on its own).
 */
export const CMDPOS =
  R`(?:^|[\n\`]|\$\()[^\S\n]*` +
  R`(?:sudo[^\S\n]+(?:-[^\s\`(]+[^\S\n]+)*)?` +
  R`(?:env[^\S\n]+(?:\w+=[^\s\`(]*[^\S\n]+)*)?` +
  R`(?:(?:exec|nohup|setsid|time)[^\S\n]+)*`;

export const SSH_SENSITIVE_PATH = R`(?:~|\$home|\$\{home\})/\.ssh(?:/|$)`;
const HERMES_HOME_PREFIX = R`(?:~\/\.hermes/|(?:\$home|\$\{home\})/\.hermes/|(?:\$hermes_home|\$\{hermes_home\})/)`;
export const HERMES_ENV_PATH = HERMES_HOME_PREFIX + R`\.env\b`;
export const HERMES_CONFIG_PATH = HERMES_HOME_PREFIX + R`config\.yaml\b`;
/** Re-spelled: upstream's suffix group `(?:\.[^/\s"'\`]+)*` is exponential on `.env.a.a.a…/` (its class contains
 * the dot, so the dots can be grouped 2^n ways); `?` matches the same strings because the class absorbs later dots. */
export const PROJECT_ENV_PATH = R`(?:(?:/|\.{1,2}/)?(?:[^\s/"'\`]+/)*\.env(?:\.[^/\s"'\`]+)?)`;
export const PROJECT_CONFIG_PATH = R`(?:(?:/|\.{1,2}/)?(?:[^\s/"'\`]+/)*config\.yaml)`;
export const SHELL_RC_FILES = R`(?:~|\$home|\$\{home\})/\.(?:bashrc|zshrc|profile|bash_profile|zprofile)\b`;
export const CREDENTIAL_FILES = R`(?:~|\$home|\$\{home\})/\.(?:netrc|pgpass|npmrc|pypirc)\b`;
export const SYSTEM_CONFIG_PATH = R`(?:/etc/|/private/(?:etc|var|tmp|home)/)`;
export const SENSITIVE_WRITE_TARGET =
  `(?:${SYSTEM_CONFIG_PATH}|/dev/sd|${SSH_SENSITIVE_PATH}|${HERMES_ENV_PATH}|${HERMES_CONFIG_PATH}|` +
  `${SHELL_RC_FILES}|${CREDENTIAL_FILES})`;
export const USER_SENSITIVE_WRITE_TARGET = `(?:${SSH_SENSITIVE_PATH}|${SHELL_RC_FILES}|${CREDENTIAL_FILES})`;
export const PROJECT_SENSITIVE_WRITE_TARGET = `(?:${PROJECT_ENV_PATH}|${PROJECT_CONFIG_PATH})`;
/** cp/mv/install: the path is the destination only when it is the last word of its command. */
export const COMMAND_TAIL = R`(?:\s*(?:&&|\|\||;).*)?$`;
/** `>` / tee: any word boundary ends the target. */
export const WRITE_TARGET_BOUNDARY = R`(?=[\s;&|<>"']|$)`;
const SHELLS = "bash|sh|zsh|ksh|dash";

/** `rm` at command position plus its flag words (`_RM`). */
const RM_LEAD = CMDPOS + R`rm\s+`;
const RM_FLAGS = R`(?:-[^\s]*\s+)*`;

/** A hardline rm target: wholly quoted, or bare and followed by whitespace, end or `` )`;|& ``. */
function rmPath(alternatives: string): string {
  return R`(?:["'](?:${alternatives})["']|(?:${alternatives})(?:\s|$|[)\`;|&]))`;
}

const ROOT_PATHS = R`/(?:(?:\.\.?)?/)*(?:\.\.?)?\**|/ \*`;
const SYSTEM_DIRS =
  R`/home|/home/\*|/root|/root/\*|/etc|/etc/\*|/usr|/usr/\*|/var|/var/\*|/bin|/bin/\*|/sbin|/sbin/\*|` +
  R`/boot|/boot/\*|/lib|/lib/\*`;
const HOME_PATHS = R`(?:~|\$\{?HOME\}?)(?:/?|/\*)?`;
const BLOCK_DEVICE = R`/dev/(sd|nvme|hd|mmcblk|vd|xvd)[a-z0-9]*`;

export const HARDLINE_PATTERNS: readonly CommandPattern[] = [
  run("recursive delete of root filesystem", RM_LEAD, RM_FLAGS, rmPath(ROOT_PATHS)),
  run("recursive delete of system directory", RM_LEAD, RM_FLAGS, rmPath(SYSTEM_DIRS)),
  run("recursive delete of home directory", RM_LEAD, RM_FLAGS, rmPath(HOME_PATHS)),
  rule("format filesystem (mkfs)", R`\bmkfs(\.[a-z0-9]+)?\b`),
  chain("dd to raw block device", [R`\bdd\b`, SAME_LINE, R`\bof=` + BLOCK_DEVICE]),
  rule("redirect to raw block device", R`>\s*` + BLOCK_DEVICE + R`\b`),
  rule("fork bomb", R`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`),
  run("kill all processes", R`\bkill\s+`, R`(?:-[^\s]+\s+)*`, R`-1\b`),
  rule("system shutdown/reboot", CMDPOS + R`(shutdown|reboot|halt|poweroff)\b`),
  rule("init 0/6 (shutdown/reboot)", CMDPOS + R`init\s+[06]\b`),
  rule("systemctl poweroff/reboot", CMDPOS + R`systemctl\s+(poweroff|reboot|halt|kexec)\b`),
  rule("telinit 0/6 (shutdown/reboot)", CMDPOS + R`telinit\s+[06]\b`),
];

const DECODE_TO_SHELL = R`\|\s*\b(${SHELLS})\b`;
const SED_INPLACE = R`\bsed\s+-[^\s]*?i`; // lazy: the first `i` gives the widest reach (command-match.ts)
const SED_INPLACE_LONG = R`\bsed\s+--in-place\b`;
const PERL_INPLACE_FLAG = R`(?:^|\s)-[^\s]*?i\b`;
const WRITABLE_MODE = R`(777|666|o\+[rwx]*w|a\+[rwx]*w)`;
const KILLALL_LEAD = R`\bkillall\s+`;
const OPTION_WORDS = R`(?:-[^\s]*\s+)*`;
const COPY_VERB = R`\b(cp|mv|install)\b`;
const GIT_BRANCH = R`\bgit\s+branch\b`;
const BRANCH_DELETE = R`(?:-d\b|--delete\b)`;
const BRANCH_FORCE = R`(?:-f\b|--force\b)`;

export const DANGEROUS_PATTERNS: readonly CommandPattern[] = [
  run("delete in root path", R`\brm\s+`, OPTION_WORDS, "/"),
  rule("recursive delete", R`\brm\s+-[^\s]*r`),
  rule("recursive delete (long flag)", R`\brm\s+--recursive\b`),
  chain("Windows cmd destructive delete", [R`\bcmd(?:\.exe)?\s+/(?:c|k)\s+`, ANY, R`\b(?:del|erase|rd|rmdir)\b`]),
  run(
    "Windows PowerShell destructive delete",
    R`\b(?:powershell|pwsh)(?:\.exe)?\b`,
    R`(?:\s+-\S+)*`,
    R`\s+(?:-(?:command|c)\s+)?["']?(?:remove-item|rmdir|erase|del|rd|ri|rm)\b`,
  ),
  chain("PowerShell encoded command execution", [
    R`\b(?:powershell|pwsh)(?:\.exe)?\b`,
    ANY,
    R`\s-(?:encodedcommand|enc|e)\b`,
  ]),
  run("world/other-writable permissions", R`\bchmod\s+`, OPTION_WORDS, WRITABLE_MODE + R`\b`),
  chain("recursive world/other-writable (long flag)", [R`\bchmod\s+--recursive\b`, ANY, WRITABLE_MODE]),
  rule("recursive chown to root", R`\bchown\s+(-[^\s]*)?R\s+root`),
  chain("recursive chown to root (long flag)", [R`\bchown\s+--recur[a-z]*\b`, ANY, "root"]),
  rule("format filesystem", R`\bmkfs\b`),
  chain("disk copy", [R`\bdd\s+`, ANY, "if="]),
  rule("write to block device", R`>\s*/dev/sd`),
  rule("SQL DROP", R`\bDROP\s+(TABLE|DATABASE)\b`),
  {
    // `\bDELETE\s+FROM\b(?![^\n]*\bWHERE\b)`: the lookahead rescans the rest of the line from every occurrence,
    // so it is searched as "an occurrence with no WHERE before the end of its line" in one pass.
    description: "SQL DELETE without WHERE",
    regex: new RegExp(R`\bDELETE\s+FROM\b(?![^\n]*\bWHERE\b)`, FLAGS),
    plan: {
      kind: "unless",
      lead: new RegExp(R`\bDELETE\s+FROM\b`, FLAGS + "g"),
      absent: new RegExp(R`\bWHERE\b`, FLAGS + "g"),
      stop: /\n/g,
    },
  },
  // Re-spelled: `\bTRUNCATE\s+(TABLE)?\s*\w` matches exactly when whitespace is followed by a word character (the
  // `t` of TABLE is one), and the three adjacent optional parts backtrack quadratically over a run of spaces.
  rule("SQL TRUNCATE", R`\bTRUNCATE\s+\w`),
  rule("overwrite system config", R`>\s*` + SYSTEM_CONFIG_PATH),
  run("stop/restart system service", R`\bsystemctl\s+`, R`(?:-[^\s]+\s+)*`, R`(stop|restart|disable|mask)\b`),
  rule("kill all processes", R`\bkill\s+-9\s+-1\b`),
  rule("force kill processes", R`\bpkill\s+-9\b`),
  run("force kill processes (killall -KILL)", KILLALL_LEAD, OPTION_WORDS, R`-(9|KILL|SIGKILL)\b`),
  run("force kill processes (killall -s KILL)", KILLALL_LEAD, OPTION_WORDS, R`-s\s+(KILL|SIGKILL|9)\b`),
  run("kill processes by regex (killall -r)", KILLALL_LEAD, OPTION_WORDS, R`-r\b`),
  rule("fork bomb", R`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`),
  chain("pipe remote content to shell", [R`\b(curl|wget)\b`, ANY, R`\|\s*(?:[/\w]*/)?(?:ba)?sh(?:\s|$|-c)`]),
  // Re-spelled: upstream's `<\s*<?\s*\(` splits a run of spaces two ways; `<\s*(?:<\s*)?\(` matches the same.
  rule("execute remote script via process substitution", R`\b(bash|sh|zsh|ksh)\s+<\s*(?:<\s*)?\(\s*(curl|wget)\b`),
  // Deviation: an optional `"` before the substitution, so the usual quoted spelling `eval "$(curl …)"` is caught
  // too (upstream only matched the bare `eval $(curl …)`).
  rule(
    "execute remote content via command substitution",
    R`(?:\beval\b|\bsource\b|\.)\s*"?(?:\$\(\s*|\`\s*)(?:curl|wget)\b`,
  ),
  chain("pipe decoded content to shell (possible command obfuscation)", [
    R`\b(base64|base32|base16)\s+(?:-[dD]|--decode)\b`,
    ANY,
    DECODE_TO_SHELL,
  ]),
  chain("pipe xxd-decoded content to shell (possible command obfuscation)", [R`\bxxd\s+-r\b`, ANY, DECODE_TO_SHELL]),
  chain("pipe tr-transformed output to shell (possible command obfuscation)", [
    R`\becho\b`,
    NO_PIPE,
    R`\|\s*\btr\b`,
    NO_PIPE,
    DECODE_TO_SHELL,
  ]),
  // Re-spelled: `[^|]*\s+-[dD]` as `[^|]*` then `\s-[dD]`; the gap already takes any extra whitespace.
  chain("pipe openssl-decoded content to shell (possible command obfuscation)", [
    R`\bopenssl\b`,
    ANY,
    R`\b(?:base64|enc)\b`,
    NO_PIPE,
    R`\s-[dD]\b`,
    NO_PIPE,
    DECODE_TO_SHELL,
  ]),
  chain("overwrite system file via tee", [R`\btee\b`, ANY, R`["']?` + SENSITIVE_WRITE_TARGET]),
  rule("overwrite system file via redirection", R`>>?\s*["']?` + SENSITIVE_WRITE_TARGET),
  // Re-spelled: after `.*` every piece of the project path before `.env` / `config.yaml` is optional, so only the
  // file name is searched (otherwise each position of a long path rescans all its directories).
  chain("overwrite project env/config via tee", [
    R`\btee\b`,
    ANY,
    R`(?:\.env(?:\.[^/\s"'\`]+)?|config\.yaml)["']?` + WRITE_TARGET_BOUNDARY,
  ]),
  rule(
    "overwrite project env/config via redirection",
    R`>>?\s*["']?` + PROJECT_SENSITIVE_WRITE_TARGET + R`["']?` + WRITE_TARGET_BOUNDARY,
  ),
  chain("xargs with rm", [R`\bxargs\s+`, ANY, R`\brm\b`]),
  chain("find -exec/-execdir rm", [R`\bfind\b`, ANY, R`-exec(?:dir)?\s+(/\S*/)?rm\b`]),
  chain("find -delete", [R`\bfind\b`, ANY, R`-delete\b`]),
  // Deviation (as upstream later, #129281): a flag's value cannot itself start with `-` and `-{1,2}` is spelled
  // `-`; upstream's spelling parses a run of flags in exponentially many ways.
  run(
    "stop/restart hermes gateway (kills running agents)",
    R`\bhermes\s+`,
    R`(?:-\S+(?:\s+(?!-)\S+)?\s+)*`,
    R`gateway\s+(stop|restart)\b`,
  ),
  rule("hermes update (restarts gateway, kills running agents)", R`\bhermes\s+update\b`),
  rule(
    "docker compose restart/stop/kill/down (container lifecycle)",
    R`\bdocker\s+compose\s+(restart|stop|kill|down)\b`,
  ),
  rule("docker restart/stop/kill (container lifecycle)", R`\bdocker\s+(restart|stop|kill)\b`),
  chain("start gateway outside systemd (use 'systemctl --user restart hermes-gateway')", [
    R`gateway\s+run\b`,
    ANY,
    R`(?:&\s*$|&\s*;|\bdisown\b|\bsetsid\b)`,
  ]),
  chain("start gateway outside systemd (use 'systemctl --user restart hermes-gateway')", [
    R`\bnohup\b`,
    ANY,
    R`gateway\s+run\b`,
  ]),
  chain("kill hermes/gateway process (self-termination)", [
    R`\b(pkill|killall)\b`,
    ANY,
    R`\b(hermes|gateway|cli\.py)\b`,
  ]),
  chain("kill process via pgrep/pidof expansion (self-termination)", [R`\bkill\b`, ANY, R`\$\(\s*(pgrep|pidof)\b`]),
  chain("kill process via backtick pgrep/pidof expansion (self-termination)", [
    R`\bkill\b`,
    ANY,
    R`\`\s*(pgrep|pidof)\b`,
  ]),
  chain("stop/restart hermes launchd service (kills running agents)", [
    R`\blaunchctl\s+(stop|kickstart|bootout|unload|kill|disable|remove)\b`,
    ANY,
    R`\b(hermes|ai\.hermes)\b`,
  ]),
  chain("copy/move file into system config path", [COPY_VERB, ANY, R`\s` + SYSTEM_CONFIG_PATH]),
  chain("overwrite project env/config file", [
    COPY_VERB,
    ANY,
    R`\s["']?` + PROJECT_SENSITIVE_WRITE_TARGET + R`["']?` + COMMAND_TAIL,
  ]),
  chain("copy/move file into sensitive credential/SSH/shell-rc path", [
    COPY_VERB,
    ANY,
    R`\s["']?` + SENSITIVE_WRITE_TARGET + R`[^\s"']*["']?` + COMMAND_TAIL,
  ]),
  chain("in-place edit of sensitive credential/SSH/shell-rc path", [
    SED_INPLACE,
    ANY,
    USER_SENSITIVE_WRITE_TARGET + R`[^\s"']*`,
  ]),
  chain("in-place edit of sensitive credential/SSH/shell-rc path (long flag)", [
    SED_INPLACE_LONG,
    ANY,
    USER_SENSITIVE_WRITE_TARGET + R`[^\s"']*`,
  ]),
  chain("in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)", [
    R`\b(?:perl|ruby)\b`,
    ANY,
    PERL_INPLACE_FLAG,
    ANY,
    USER_SENSITIVE_WRITE_TARGET + R`[^\s"']*`,
  ]),
  chain("in-place edit of system config", [SED_INPLACE, ANY, R`\s` + SYSTEM_CONFIG_PATH]),
  chain("in-place edit of system config (long flag)", [SED_INPLACE_LONG, ANY, R`\s` + SYSTEM_CONFIG_PATH]),
  chain("in-place edit of Hermes config/env", [SED_INPLACE, ANY, `(?:${HERMES_CONFIG_PATH}|${HERMES_ENV_PATH})`]),
  chain("in-place edit of Hermes config/env (long flag)", [
    SED_INPLACE_LONG,
    ANY,
    `(?:${HERMES_CONFIG_PATH}|${HERMES_ENV_PATH})`,
  ]),
  chain("in-place edit of Hermes config/env (perl/ruby)", [
    R`\b(?:perl|ruby)\b`,
    ANY,
    PERL_INPLACE_FLAG,
    ANY,
    `(?:${HERMES_CONFIG_PATH}|${HERMES_ENV_PATH})`,
  ]),
  rule("shell execution via heredoc", R`\b(bash|sh|zsh|ksh)\s+<<`),
  rule("git reset --hard (destroys uncommitted changes)", R`\bgit\s+reset\s+--h(?:a(?:r(?:d)?)?)?\b`),
  chain("git force push (rewrites remote history)", [R`\bgit\s+push\b`, ANY, R`--forc[a-z]*\b`]),
  chain("git force push short flag (rewrites remote history)", [R`\bgit\s+push\b`, ANY, R`-f\b`]),
  rule("git clean with force (deletes untracked files)", R`\bgit\s+clean\s+-[^\s]*f`),
  // Deviation, upstream gap 2 (hermes-behaviour.md): only the capital `-D` is a force delete. Upstream lower-cased
  // the whole command, so the safe merged-only `git branch -d` was flagged too. Variants keep a flag's case and this
  // one rule is compiled without the `i` flag (the rest of the command is already lower-case).
  rule("git branch force delete", R`\bgit\s+branch\s+-D\b`, "s"),
  chain("git branch force delete (long flags)", [GIT_BRANCH, SAME_COMMAND, BRANCH_DELETE, SAME_COMMAND, BRANCH_FORCE]),
  chain("git branch force delete (long flags, force-first)", [
    GIT_BRANCH,
    SAME_COMMAND,
    BRANCH_FORCE,
    SAME_COMMAND,
    BRANCH_DELETE,
  ]),
  // Re-spelled: `[;&|]+` as `[;&|]`; the `.*` before it takes any extra separators.
  chain("chmod +x followed by immediate execution", [R`\bchmod\s+\+x\b`, ANY, R`[;&|]\s*\./`]),
  // Re-spelled: `[^;|&\n]*?\s+FLAG` as the gap then `\s+FLAG` starting a whitespace run (`(?<!\s)`), which is the
  // same set of matches (the run starts inside the gap's reach) without rescanning the run from each of its spaces.
  chain("sudo with privilege flag (stdin/askpass/shell/list)", [
    R`\bsudo\b`,
    SAME_COMMAND,
    R`(?<!\s)\s+(?:-s\b|--st[a-z]*\b|-a\b|--a[a-z]*\b)`,
  ]),
  // Re-spelled as well: `-[a-z]*[sa][a-z]*\b` needs the whole letter run to end at a boundary, which the lookahead
  // form states without trying every split of the run.
  chain("sudo with combined-flag privilege escalation", [
    R`\bsudo\b`,
    SAME_COMMAND,
    R`(?<!\s)\s+-(?=[a-z]*[sa])[a-z]+\b`,
  ]),
];

/** Upstream's sudo stdin guard, re-spelled like CMDPOS (a newline after the separator is itself a separator). */
export const SUDO_STDIN_REGEX = new RegExp(R`(?:^|[;&|\`\n]|\$\()[^\S\n]*sudo\s+-S\b`, "i");

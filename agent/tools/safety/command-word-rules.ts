/**
 * Dangerous commands read from the lexed words rather than the text (hermes-behaviour.md §6.3 lists upstream's
 * regex tables; these close the forms the tables miss). Reading words means option order (`rm build/ -rf`, GNU tools
 * permute options), global options (`git -C . push -f`, `yarn --cwd ./app remove`), quote splices and ANSI-C quoting
 * (`~/'.bashrc'`, `re"start"`) and absolute spellings of the home directory no longer matter.
 *
 * Descriptions are approval keys (a session approval covers every command with the same description, upstream's
 * semantics), so a rule reuses upstream's description where it closes a gap in an upstream rule.
 */

import { HOME_STARTUP_DIRS, HOME_STARTUP_FILES } from "../../security/credential-locations.js";
import { escapeRegExp } from "../../workspace/resolve-path.js";
import { gitRisk } from "./command-git-rules.js";
import type { Redirection, SimpleCommand } from "./command-shell-lex.js";
import type { WriteTarget } from "./command-targets.js";
import { hasOption, operands, type ProgramCall, programCall, wordValue } from "./command-words.js";

export interface WordFinding {
  readonly level: "hardline" | "dangerous";
  readonly description: string;
}

export interface WordRuleOptions {
  readonly home: string;
  readonly hermesHome?: string;
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items);
const hard = (description: string): WordFinding => ({ level: "hardline", description });
const ask = (description: string): WordFinding => ({ level: "dangerous", description });

export const RECURSIVE_DELETE = "recursive delete";
export const PERSISTENCE = "write to shell startup, credential or autostart file (persistence)";

const BLOCK_DEVICE = /^\/dev\/(?:sd|nvme|hd|mmcblk|vd|xvd|disk|dm-|md|loop)[a-z0-9]*$/;

// Package managers: options before the verb that take a value, and the verbs that remove software.
const PM_WITH_VALUE = set(
  "--prefix",
  "--cwd",
  "-C",
  "--dir",
  "--filter",
  "-F",
  "-w",
  "--workspace",
  "--proxy",
  "--index-url",
  "-i",
  "--extra-index-url",
  "--cache-dir",
  "--registry",
  "--userconfig",
  "--python",
  "-p",
  "--log",
  "--root",
  "--target",
  "-t",
);
const UNINSTALL_VERBS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: set("uninstall", "un", "unlink", "remove", "rm", "r", "erase"),
  pnpm: set("uninstall", "un", "remove", "rm", "unlink"),
  yarn: set("remove", "unlink"),
  bun: set("remove", "rm", "uninstall"),
  pip: set("uninstall"),
  pipx: set("uninstall", "uninstall-all"),
  uv: set("uninstall", "remove"),
  brew: set("uninstall", "remove", "rm", "untap"),
  gem: set("uninstall"),
  cargo: set("uninstall"),
  conda: set("remove", "uninstall"),
  apt: set("remove", "purge", "autoremove"),
  "apt-get": set("remove", "purge", "autoremove"),
  dnf: set("remove", "erase", "autoremove"),
  yum: set("remove", "erase", "autoremove"),
  zypper: set("remove", "rm"),
  apk: set("del"),
  snap: set("remove"),
  flatpak: set("uninstall", "remove"),
};

function packageUninstall(call: ProgramCall): WordFinding | undefined {
  // `python3 -m pip uninstall x` is pip.
  if (/^python[0-9.]*$/.test(call.name) && call.args[0] === "-m" && /^pip\d?$/.test(call.args[1] ?? "")) {
    return packageUninstall({ ...call, name: "pip", args: call.args.slice(2), argWords: call.argWords.slice(2) });
  }
  const name = /^pip\d?(?:\.\d+)?$/.test(call.name) ? "pip" : call.name;
  if (name === "pacman" || name === "pamac")
    return call.args.some((a) => /^-R/.test(a) || a === "--remove") ? ask("package manager uninstall") : undefined;
  const verbs = UNINSTALL_VERBS[name];
  if (!verbs) return undefined;
  const words = operands(call.args, PM_WITH_VALUE);
  // `yarn global remove`, `uv pip uninstall`, `python -m pip`: a namespace word may come first.
  const verb = words[0] === "global" || words[0] === "pip" || words[0] === "tool" ? words[1] : words[0];
  return verb !== undefined && verbs.has(verb.toLowerCase()) ? ask("package manager uninstall") : undefined;
}

/** Whether a chmod mode lets others (or everyone) write: `777`, `0666`, `a=rwx`, `o+w`, `+w`… */
function othersWritable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (parseInt(mode.slice(-1), 8) & 2) !== 0;
  return mode.split(",").some((clause) => {
    const match = /^([ugoa]*)([+=])([rwxXst]*)$/.exec(clause);
    return match !== null && match[3]!.includes("w") && (match[1] === "" || /[oa]/.test(match[1]!));
  });
}

const SYSTEM_ROOTS =
  /^\/(?:(?:etc|usr|var|bin|sbin|lib|lib64|boot|opt|root|home|srv|sys|proc|dev|private|System|Library|Applications)(?:\/[^/]*)?)?\/?$/;

function permissionRule(call: ProgramCall, home: string): WordFinding | undefined {
  const ops = operands(call.args, set("--reference"));
  const recursive = hasOption(call.args, "R", ["--recursive"]);
  const targets = ops.slice(1).map((t) => t.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home));
  const broad = targets.some((t) => SYSTEM_ROOTS.test(t) || t === home || t === `${home}/`);
  if (call.name === "chmod" && othersWritable(ops[0] ?? ""))
    return ask(recursive ? "recursive world/other-writable (long flag)" : "world/other-writable permissions");
  if (recursive && broad) return ask(`recursive ${call.name} of a system or home directory`);
  return undefined;
}

const DELETERS = set("rm", "unlink", "rmdir", "shred", "truncate", "srm", "wipe");
/** Programs `find -exec` / `xargs` may run on every match without asking. */
const HARMLESS_EACH = set(
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "stat",
  "file",
  "echo",
  "printf",
  "du",
  "sha1sum",
  "sha256sum",
  "md5sum",
  "basename",
  "dirname",
  "test",
  "[",
  "realpath",
  "readlink",
  "diff",
  "cmp",
  "jq",
  "sed",
  "awk",
  "sort",
  "uniq",
  "true",
  "false",
  "dos2unix",
  "prettier",
  "eslint",
);

function eachMatchRule(call: ProgramCall): WordFinding | undefined {
  if (call.name === "find") {
    for (let i = 0; i < call.args.length; i++) {
      const arg = call.args[i]!;
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(arg)) continue;
      const program = (call.args[i + 1] ?? "").split("/").pop()!.toLowerCase();
      if (DELETERS.has(program)) return ask("find -exec/-execdir rm");
      if (!HARMLESS_EACH.has(program) || (program === "sed" && call.args.slice(i).some((a) => /^-[^-]*i/.test(a))))
        return ask("find -exec runs a command on every match");
    }
    return undefined;
  }
  if (
    call.wrappers.includes("xargs") &&
    (DELETERS.has(call.name) || call.name === "mv" || call.name === "chmod" || call.name === "chown")
  )
    return ask("xargs with a destructive command");
  return undefined;
}

const FORMATTERS =
  /^(?:mkfs(?:\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|wipefs|blkdiscard|sfdisk|fdisk|gdisk|sgdisk|parted|cfdisk|cryptsetup)$/;

function diskRule(call: ProgramCall): WordFinding | undefined {
  const onDevice = operands(call.args).some((a) => BLOCK_DEVICE.test(a));
  if (FORMATTERS.test(call.name))
    return onDevice ? hard("format filesystem (mkfs)") : ask("format or partition a disk");
  if (call.name === "shred" && onDevice) return hard("overwrite raw block device");
  if (call.name === "shred") return ask("shred (irrecoverable delete)");
  if (call.name === "crontab") {
    if (hasOption(call.args, "r", [])) return ask("crontab remove (deletes scheduled jobs)");
    if (!hasOption(call.args, "le", [])) return ask("crontab install (persistence)");
  }
  return undefined;
}

// Cloud instance-metadata endpoints hand out the machine's credentials.
const METADATA =
  /(?:^|[^\d.])(?:169\.254\.169\.254|169\.254\.170\.2|100\.100\.100\.200)(?![\d])|(?:^|[^\w.-])metadata\.google\.internal(?![\w.-])|fd00:ec2::254/i;

const SENDERS = set(
  "curl",
  "wget",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "scp",
  "sftp",
  "ftp",
  "rsync",
  "http",
  "https",
  "xh",
  "telnet",
  "openssl",
  "aws",
  "gsutil",
  "rclone",
);
const CREDENTIALS =
  /(?:^|\/)(?:\.ssh(?:\/|$)|\.aws\/|\.gnupg\/|\.config\/gh\/|\.netrc$|\.pgpass$|\.npmrc$|\.pypirc$|\.docker\/config\.json$|\.kube\/config$|\.git-credentials$|id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?$|\.env(?:\.[\w.-]+)?$|credentials(?:\.json)?$|auth\.json$)/;

// Files a shell, the desktop or a tool reads at start-up and runs code from (the shared list, also kept read-only by
// the sandbox), plus credential stores and Hermes' own config that a write would plant something in.
const STARTUP_FILES = new RegExp(
  `^(?:${[
    ...HOME_STARTUP_FILES.map(escapeRegExp),
    ...HOME_STARTUP_DIRS.map((dir) => `${escapeRegExp(dir)}(?:/.*)?`),
    "\\.(?:netrc|npmrc|pypirc|pgpass)",
    "\\.ssh(?:/.*)?",
    "\\.hermes/(?:\\.env|config\\.yaml)",
  ].join("|")})$`,
);

/** Whether an absolute path is one of the user's start-up or credential files, or a system config file. */
export function isPersistencePath(path: string, options: WordRuleOptions): boolean {
  if (/^\/(?:etc|private\/etc)\//.test(path)) return true;
  if (options.hermesHome && (path === `${options.hermesHome}/.env` || path === `${options.hermesHome}/config.yaml`))
    return true;
  return path.startsWith(`${options.home}/`) && STARTUP_FILES.test(path.slice(options.home.length + 1));
}

/** The first finding for one program call. */
function callRule(call: ProgramCall, options: WordRuleOptions): WordFinding | undefined {
  switch (call.name) {
    case "git": {
      const risk = gitRisk(call.args);
      return risk === undefined ? undefined : ask(risk);
    }
    case "rm":
      if (hasOption(call.args, "rR", ["--recursive"])) return ask(RECURSIVE_DELETE);
      break;
    case "chmod":
    case "chown":
    case "chgrp":
      return permissionRule(call, options.home);
    case "systemctl":
    case "service": {
      const verb = operands(call.args)[call.name === "service" ? 1 : 0];
      if (verb && /^(?:stop|restart|kill|disable|mask|try-restart|reload-or-restart|isolate)$/.test(verb))
        return ask("stop/restart system service");
      if (verb && /^(?:enable|link|edit|set-default)$/.test(verb)) return ask("enable system service (persistence)");
      break;
    }
  }
  return packageUninstall(call) ?? eachMatchRule(call) ?? diskRule(call);
}

/** The first word-level finding of a line, hardline ones first. */
export function wordRules(
  commands: readonly SimpleCommand[],
  redirections: readonly Redirection[],
  targets: readonly WriteTarget[],
  options: WordRuleOptions,
): WordFinding | undefined {
  const calls = commands.map(programCall);
  // Writing a raw block device by any route (`cp`, `tee`, a redirection) destroys the disk, as `dd of=` does.
  if (targets.some((t) => t.kind === "write" && t.path !== undefined && BLOCK_DEVICE.test(t.path)))
    return hard("write to raw block device");
  const findings = calls.map((call) => callRule(call, options));
  const hardFinding = findings.find((f) => f?.level === "hardline");
  if (hardFinding) return hardFinding;
  if (targets.some((t) => t.kind !== "delete" && t.path !== undefined && isPersistencePath(t.path, options)))
    return ask(PERSISTENCE);
  const first = findings.find((f) => f !== undefined) ?? launchdUnknownTarget(calls);
  if (first) return first;
  const words = [
    ...commands.flatMap((c) => c.words.map(wordValue)),
    ...redirections.flatMap((r) => (r.target ? [wordValue(r.target)] : [])),
  ];
  if (words.some((w) => METADATA.test(w))) return ask("cloud metadata endpoint access (instance credentials)");
  if (calls.some((c) => SENDERS.has(c.name))) {
    const credential = words.some((w) => CREDENTIALS.test(w.replace(/^@/, "").replace(/^[\w-]+=@?/, "")));
    if (credential) return ask("send a credential file over the network");
  }
  return undefined;
}

const SUDO_WITH_VALUE = set("-u", "-g", "-p", "-C", "-D", "-h", "-r", "-t", "-T", "-U", "-R");

/**
 * `sudo` reading a password from stdin, whatever the flag order: `-S` bundled (`-Sk`, `-nS`) or after other flags
 * (`-k -S`), or `--stdin` (upstream widened its guard the same way; sudo parses flags with getopt).
 */
export function sudoReadsStdin(commands: readonly SimpleCommand[]): boolean {
  return commands.some((command) => {
    const values = command.words.map(wordValue);
    const at = values.findIndex((v) => v === "sudo" || v.endsWith("/sudo"));
    if (at < 0) return false;
    for (let i = at + 1; i < values.length; i++) {
      const v = values[i]!;
      if (v === "--stdin") return true;
      if (v === "--" || !v.startsWith("-")) return false;
      if (!v.startsWith("--") && v.slice(1).includes("S")) return true;
      if (SUDO_WITH_VALUE.has(v)) i++;
    }
    return false;
  });
}

const LAUNCHD_LIFECYCLE = set("stop", "kickstart", "bootout", "unload", "remove", "disable", "kill");

/**
 * `launchctl bootout "gui/$uid/$label"`: a lifecycle verb on a service named by a variable cannot be told apart from
 * the Hermes gateway (the label may have been built earlier in the line), so it asks like the gateway rule.
 */
export function launchdUnknownTarget(calls: readonly ProgramCall[]): WordFinding | undefined {
  const hit = calls.some(
    (c) =>
      c.name === "launchctl" &&
      LAUNCHD_LIFECYCLE.has(operands(c.args)[0] ?? "") &&
      operands(c.args)
        .slice(1)
        .some((a) => /[$`]/.test(a)),
  );
  return hit ? ask("stop/restart hermes launchd service (kills running agents)") : undefined;
}

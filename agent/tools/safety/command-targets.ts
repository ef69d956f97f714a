/**
 * The paths a command line changes: redirection targets, and the operands that file tools write, move, delete or
 * re-permission. Two rules read them: persistence (a write to a shell startup, credential or autostart file,
 * command-word-rules.ts) and containment (a change outside the workspace asks every time, and no session or
 * permanent approval covers it, command-gate.ts).
 *
 * Paths are resolved against the workspace root, following literal `cd` commands of the same line; a path that
 * depends on a variable or on an unknowable working directory counts as outside (what cannot be resolved asks).
 */
import { tmpdir } from "node:os";
import type { Redirection, SimpleCommand } from "./command-shell-lex.js";
import { absolutePath, hasOption, operands, type PathContext, programCall, wordValue } from "./command-words.js";

export type TargetKind = "write" | "move" | "delete" | "mode";

export interface WriteTarget {
  readonly kind: TargetKind;
  /** As written (after quote removal). */
  readonly value: string;
  /** Absolute, or undefined when it cannot be resolved. */
  readonly path: string | undefined;
}

export interface TargetOptions {
  readonly home: string;
  /** The workspace root. */
  readonly root?: string;
  /** Where the command starts (relative paths resolve from here); the root when absent. */
  readonly cwd?: string;
}

/** Redirection targets that write nothing anyone keeps. */
const HARMLESS_DEVICES = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+|zero)$/;
const WRITE_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

const set = (...items: string[]): ReadonlySet<string> => new Set(items);
const TRUNCATE_VALUES = set("-s", "--size", "-r", "--reference");
const CHMOD_VALUES = set("--reference");
const SED_VALUES = set("-e", "--expression", "-f", "--file", "-l", "--line-length");
const COPY_VALUES = set("-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group");

/** `cp -t DIR` / `--target-directory=DIR`, else the last operand. */
function destination(args: readonly string[], ops: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-t" || arg === "--target-directory") return args[i + 1];
    if (arg.startsWith("--target-directory=")) return arg.slice("--target-directory=".length);
  }
  return ops.length >= 2 ? ops[ops.length - 1] : undefined;
}

/** The (kind, value) pairs one program call changes. */
function programTargets(name: string, args: readonly string[]): Array<[TargetKind, string]> {
  switch (name) {
    case "tee":
    case "touch":
    case "mkdir":
      return operands(args).map((v) => ["write", v]);
    case "truncate":
      return operands(args, TRUNCATE_VALUES).map((v) => ["write", v]);
    case "rm":
    case "rmdir":
    case "unlink":
    case "shred":
      return operands(args).map((v) => ["delete", v]);
    case "chmod":
    case "chown":
    case "chgrp":
      return operands(args, CHMOD_VALUES)
        .slice(1)
        .map((v) => ["mode", v]);
    case "cp":
    case "install":
    case "ln":
    case "rsync": {
      const dest = destination(args, operands(args, COPY_VALUES));
      // A remote rsync destination (`host:path`) is not on this machine.
      return dest !== undefined && !/^[^/]*:/.test(dest) ? [["write", dest]] : [];
    }
    case "mv": {
      const ops = operands(args, COPY_VALUES);
      const dest = destination(args, ops);
      const sources = ops.filter((v) => v !== dest);
      return [
        ...sources.map((v): [TargetKind, string] => ["move", v]),
        ...(dest ? [["write", dest] as [TargetKind, string]] : []),
      ];
    }
    case "dd":
      return args.filter((a) => a.startsWith("of=")).map((a) => ["write", a.slice(3)]);
    case "sed":
    case "perl":
    case "ruby": {
      if (!hasOption(args, name === "sed" ? "i" : "i", ["--in-place"])) return [];
      const ops = operands(args, SED_VALUES);
      // sed's first operand is its script unless -e/-f gave one; perl/ruby -i -pe 'code' files: code is a value.
      const scripted = args.some((a) => /^-[^-]*[ef]/.test(a) || a.startsWith("--expression") || a === "--file");
      return (scripted ? ops : ops.slice(1)).map((v) => ["write", v]);
    }
    default:
      return [];
  }
}

/** Every path the line changes, in order. */
export function writeTargets(
  commands: readonly SimpleCommand[],
  redirections: readonly Redirection[],
  options: TargetOptions,
): WriteTarget[] {
  let cwd: string | undefined = options.cwd ?? options.root;
  const context = (): PathContext => ({ home: options.home, cwd });
  const out: WriteTarget[] = [];
  const push = (kind: TargetKind, value: string): void => {
    out.push({ kind, value, path: absolutePath(value, context()) });
  };
  // The working directory in force from each command's start on, for the redirections met between them.
  const cwdFrom: Array<readonly [number, string | undefined]> = [];
  for (const command of commands) {
    cwdFrom.push([command.words[0]!.start, cwd]);
    const call = programCall(command);
    if (call.name === "cd" || call.name === "pushd") {
      const to = operands(call.args)[0];
      cwd = to === undefined ? options.home : to === "-" ? undefined : absolutePath(to, context());
      continue;
    }
    for (const [kind, value] of programTargets(call.name, call.args)) push(kind, value);
  }
  for (const redirection of redirections) {
    if (!WRITE_OPERATORS.has(redirection.operator) || !redirection.target) continue;
    const at = redirection.target.start;
    cwd = cwdFrom.filter(([start]) => start <= at).pop()?.[1] ?? options.cwd ?? options.root;
    push("write", wordValue(redirection.target));
  }
  return out;
}

/** Directories outside the workspace that commands may still change without asking: the temp folders. */
function tempRoots(): string[] {
  return [...new Set(["/tmp", "/var/tmp", tmpdir()])];
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/**
 * The targets outside the workspace (and outside the temp folders): unresolvable ones included. Without a
 * workspace root nothing is judged outside (the caller has no workspace to contain).
 */
export function outsideTargets(targets: readonly WriteTarget[], root: string | undefined): WriteTarget[] {
  if (!root) return [];
  return targets.filter((t) => {
    if (t.path === undefined) return true;
    if (HARMLESS_DEVICES.test(t.path)) return false;
    return !within(t.path, root) && !tempRoots().some((dir) => within(t.path!, dir));
  });
}

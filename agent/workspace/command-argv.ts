import { existsSync } from "node:fs";
import { secretVariableNames } from "../sandbox/secret-environment.js";
import type { CommandSpec } from "./workspace.js";

// Commands run under bash when the machine has it (upstream runs bash), else POSIX sh.
export const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

/** The program and arguments that run `spec.command`: the sandbox launcher, if any, then `bash -c <command>`. */
export function commandArgv(spec: CommandSpec): string[] {
  return [...(spec.launcher ?? []), SHELL, "-c", spec.command];
}

/**
 * For a command the editor starts in its own terminal: the editor's environment is not ours to filter, so the
 * secrets this server knows of (those in its own environment: an editor usually starts us with its own) are unset
 * by `env -u` in front of the command.
 */
export function editorTerminalArgv(
  spec: CommandSpec,
  serverEnv: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const unset = secretVariableNames(serverEnv, spec.envPassthrough).flatMap((name) => ["-u", name]);
  return [...(unset.length > 0 ? ["env", ...unset] : []), ...commandArgv(spec)];
}

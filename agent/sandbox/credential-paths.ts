import { join } from "node:path";
import {
  HERMES_CREDENTIAL_FILES,
  HOME_CREDENTIAL_DIRS,
  HOME_CREDENTIAL_FILES,
  HOME_STARTUP_DIRS,
  HOME_STARTUP_FILES,
} from "../security/credential-locations.js";

/**
 * What the sandbox makes unreadable to every command, in every mode (an empty folder or an empty file appears in
 * their place): the shared credential list, plus HERMES_HOME's MCP token folder and auth folder whole.
 */
export function credentialPaths(home: string, hermesHome: string): string[] {
  return [
    ...[...HOME_CREDENTIAL_DIRS, ...HOME_CREDENTIAL_FILES].map((p) => join(home, p)),
    ...[...HERMES_CREDENTIAL_FILES, "auth", "mcp-tokens"].map((p) => join(hermesHome, p)),
  ];
}

/** Start-up files and folders under ~ (the shared list): read-only even inside a writable folder. */
export const SHELL_STARTUP_FILES: readonly string[] = [...HOME_STARTUP_FILES, ...HOME_STARTUP_DIRS];

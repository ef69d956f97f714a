import { join } from "node:path";
import {
  HERMES_CREDENTIAL_FILES,
  HOME_CREDENTIAL_DIRS,
  HOME_CREDENTIAL_FILES,
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

/** Shell start-up files: writing one plants a command in every later shell, so they stay read-only even inside. */
export const SHELL_STARTUP_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".config/fish",
  ".kshrc",
  ".inputrc",
  ".gitconfig",
  ".config/git",
  ".config/autostart",
  ".config/systemd",
];

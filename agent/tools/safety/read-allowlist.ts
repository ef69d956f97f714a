import { dirname, join } from "node:path";
import type { Env } from "../../config/hermes-home.js";
import { hermesDirs } from "../../security/hermes-dirs.js";
import { isSameOrUnder, realPath } from "../../security/real-path.js";

/**
 * Folders outside the workspace the file tools read without asking (the read-deny rules still apply inside them):
 * what a coding agent looks up while working and what holds nothing of the user's own.
 * - HERMES_HOME (and its root) `skills/`, `cache/web/` (pages web_extract saved for the model to page through) and
 *   `cache/exec/` (the full stdout of execute_code scripts the model saw only in part);
 * - system headers and library sources: /usr/include, /usr/local/include, /usr/lib, /usr/lib64, /usr/local/lib,
 *   /usr/share, /usr/local/share, /usr/src, Homebrew's include/lib/Cellar, the Xcode and Command Line Tools SDKs;
 * - toolchains and package caches: ~/.cargo/registry and git, ~/.rustup/toolchains, ~/go/pkg/mod (and $GOMODCACHE,
 *   $GOPATH/pkg/mod, $CARGO_HOME, $RUSTUP_HOME), ~/.m2/repository, ~/.gradle/caches, ~/.nvm/versions, ~/.pyenv/versions,
 *   ~/.local/lib (user site-packages), and the global node_modules and headers of the Node.js running this server.
 */
const SYSTEM_DIRS = [
  "/usr/include",
  "/usr/local/include",
  "/usr/lib",
  "/usr/lib64",
  "/usr/local/lib",
  "/usr/share",
  "/usr/local/share",
  "/usr/src",
  "/opt/homebrew/include",
  "/opt/homebrew/lib",
  "/opt/homebrew/Cellar",
  "/Library/Developer/CommandLineTools",
  "/Applications/Xcode.app/Contents/Developer",
];
const HOME_DIRS = [
  ".cargo/registry",
  ".cargo/git",
  ".rustup/toolchains",
  "go/pkg/mod",
  ".m2/repository",
  ".gradle/caches",
  ".nvm/versions",
  ".pyenv/versions",
  ".local/lib",
];

export interface ReadAllowlistOptions {
  readonly hermesHome: string;
  readonly userHome: string;
  readonly env: Env;
}

const cache = new Map<string, readonly string[]>();

/** The allowlisted folders, resolved (memoised per home and toolchain variables: they do not move mid-session). */
export function readAllowlist(options: ReadAllowlistOptions): readonly string[] {
  const { hermesHome, userHome, env } = options;
  const fromEnv = [
    env.GOMODCACHE,
    env.GOPATH && join(env.GOPATH, "pkg", "mod"),
    env.CARGO_HOME && join(env.CARGO_HOME, "registry"),
    env.RUSTUP_HOME && join(env.RUSTUP_HOME, "toolchains"),
  ].filter((p): p is string => typeof p === "string" && p.length > 0);
  const key = JSON.stringify([hermesHome, userHome, fromEnv]);
  let dirs = cache.get(key);
  if (!dirs) {
    const nodePrefix = dirname(dirname(process.execPath));
    dirs = [
      ...hermesDirs(hermesHome, userHome).flatMap((dir) => [
        join(dir, "skills"),
        join(dir, "cache", "web"),
        join(dir, "cache", "exec"),
      ]),
      ...SYSTEM_DIRS,
      ...HOME_DIRS.map((d) => join(userHome, d)),
      ...fromEnv,
      join(nodePrefix, "lib", "node_modules"),
      join(nodePrefix, "include", "node"),
    ].map((d) => realPath(d));
    cache.set(key, dirs);
  }
  return dirs;
}

/** Whether `resolved` (a realPath) lies in an allowlisted folder. */
export function isAllowlistedRead(resolved: string, options: ReadAllowlistOptions): boolean {
  return readAllowlist(options).some((dir) => isSameOrUnder(resolved, dir));
}

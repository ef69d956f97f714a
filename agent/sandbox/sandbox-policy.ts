import { existsSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { expandHome, isSameOrUnder, realPath } from "../security/real-path.js";
import { credentialPaths, SHELL_STARTUP_FILES } from "./credential-paths.js";

/** The session modes as the sandbox sees them: only read-only differs (nothing writable but a private temp folder). */
export type SandboxAccess = "read_only" | "workspace_write";

export interface SandboxPolicyInput {
  readonly access: SandboxAccess;
  readonly workspaceRoot: string;
  readonly home: string;
  readonly hermesHome: string;
  /** The host's temp folder (os.tmpdir()). */
  readonly tmp: string;
  readonly network: "allow" | "deny";
  /** `terminal.sandbox.writable`, absolute or `~/…`. */
  readonly extraWritable: readonly string[];
}

export interface HiddenPath {
  readonly path: string;
  readonly isDirectory: boolean;
}

/**
 * What a contained command may touch, as real paths (symlinks resolved, so a link into a protected place protects
 * nothing less). Everything is readable except `hidden`; only `writable` can be written, minus `readOnly`.
 */
export interface SandboxPolicy {
  readonly access: SandboxAccess;
  /** Writable folders, parents before children. Empty in read-only mode. */
  readonly writable: readonly string[];
  /** Inside writable folders but kept read-only (repository config and hooks, HERMES_HOME, shell start-up files). */
  readonly readOnly: readonly string[];
  /** Protected folders that do not exist yet: created empty and read-only, so nothing can be planted there. */
  readonly readOnlyEmpty: readonly string[];
  /** Credentials, replaced by an empty folder or file. */
  readonly hidden: readonly HiddenPath[];
  /** Read-only mode: the temp folder is private to the command (writes there vanish with it). */
  readonly privateTmp: boolean;
  readonly tmp: string;
  /** With a private temp folder: places under it that must stay visible (read-only), such as the workspace. */
  readonly keepVisible: readonly string[];
  readonly network: "allow" | "deny";
}

/**
 * Package-manager caches that builds write to; writable so that `npm install`, `cargo build` or `pip install` work
 * in the default mode without a question. Only those that exist are mounted.
 */
const WRITABLE_CACHES = [
  ".npm",
  ".cache",
  ".yarn",
  ".pnpm-store",
  ".local/share/pnpm",
  ".bun/install/cache",
  ".cargo/registry",
  ".cargo/git",
  "go/pkg/mod",
  ".gradle/caches",
  ".m2/repository",
  ".deno",
  ".nuget/packages",
];

/** Sockets that hand a command the powers of another process (Docker is root; the user's bus can start services). */
const HOST_SOCKETS = [
  "/var/run/docker.sock",
  "/run/docker.sock",
  "/run/dbus/system_bus_socket",
  "/var/run/dbus/system_bus_socket",
];

export function buildSandboxPolicy(input: SandboxPolicyInput): SandboxPolicy {
  const home = realPath(input.home);
  const hermesHome = realPath(input.hermesHome);
  const workspace = realPath(input.workspaceRoot);
  const tmp = realPath(input.tmp);
  const writable =
    input.access === "read_only"
      ? []
      : uniqueOuter(
          [
            workspace,
            tmp,
            "/tmp",
            "/var/tmp",
            ...WRITABLE_CACHES.map((c) => join(home, c)),
            ...input.extraWritable.map((p) => realPath(expandHome(p, home))),
          ].filter((p) => existsSync(p)),
        );
  const inside = (path: string) => writable.some((w) => isSameOrUnder(path, w));
  const protectedPaths = [
    join(workspace, ".git", "config"),
    join(workspace, ".git", "hooks"),
    hermesHome,
    ...SHELL_STARTUP_FILES.map((f) => join(home, f)),
  ];
  const readOnly: string[] = [];
  const readOnlyEmpty: string[] = [];
  for (const path of protectedPaths) {
    if (!inside(path)) continue;
    if (existsSync(path)) readOnly.push(realPath(path));
    // A repository without a hooks folder: planting one is what the protection is for.
    else if (path.endsWith(`${sep}hooks`) && existsSync(dirname(path))) readOnlyEmpty.push(path);
  }
  const hidden: HiddenPath[] = [];
  const userRuntime = typeof process.getuid === "function" ? `/run/user/${process.getuid()}` : undefined;
  for (const path of [...credentialPaths(home, hermesHome), ...HOST_SOCKETS, ...(userRuntime ? [userRuntime] : [])]) {
    const kind = entryKind(path);
    if (kind) hidden.push({ path: realPath(path), isDirectory: kind === "directory" });
  }
  const privateTmp = input.access === "read_only";
  const keepVisible = privateTmp
    ? [workspace, hermesHome].filter((p) => isSameOrUnder(p, "/tmp") || isSameOrUnder(p, tmp))
    : [];
  return {
    access: input.access,
    writable,
    readOnly,
    readOnlyEmpty,
    hidden,
    privateTmp,
    tmp,
    keepVisible,
    network: input.network,
  };
}

function entryKind(path: string): "directory" | "file" | undefined {
  try {
    // stat follows links, so a missing path (most of the list, on most machines) costs one failed call and no
    // resolution; only what exists is resolved, by the caller.
    const stat = statSync(path);
    return stat.isDirectory() ? "directory" : "file";
  } catch {
    return undefined;
  }
}

/** Distinct folders, parents first (a child of a writable folder needs no mount of its own). */
function uniqueOuter(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((outer) => isSameOrUnder(p, outer)));
}

import { delimiter, join, normalize } from "node:path";
import type { Env } from "../config/hermes-home.js";
import { hermesDirs, hermesRootOf, profileDirs, scanVerdictsFileOf } from "./hermes-dirs.js";
import { expandHome, isSameOrUnder, isUnder, realPath } from "./real-path.js";

export { hermesRootOf } from "./hermes-dirs.js";
export { isSecretEnvFileName, type ReadBlockOptions, readBlockedError } from "./read-deny.js";
export { realPath } from "./real-path.js";

/**
 * Upstream's file write-deny rules (agent/file_safety.py and the extra write guard of tools/file_tools.py), with the
 * same messages; the read-deny rules are in read-deny.ts. Everything that locates "home" comes in as an argument:
 * the caller decides where the user's home and HERMES_HOME are, so tests can point them at temporary folders.
 */
export interface WriteDenyOptions {
  /** The user's home folder (~). */
  readonly home: string;
  /** HERMES_HOME (possibly a profile: `<root>/profiles/<name>`). */
  readonly hermesHome: string;
  /** The word that starts the message ("Write", "Delete"...). */
  readonly verb?: string;
  /** Where HERMES_WRITE_SAFE_ROOT is read from. */
  readonly env?: Env;
}

const HOME_DENIED_FILES = [
  ".ssh/authorized_keys",
  ".ssh/id_rsa",
  ".ssh/id_ed25519",
  ".ssh/config",
  ".netrc",
  ".pgpass",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
];
const HERMES_DENIED_FILES = [".env", ".anthropic_oauth.json", "cache/bws_cache.enc.json"];
const SYSTEM_DENIED_FILES = ["/etc/sudoers", "/etc/passwd", "/etc/shadow"];
const HOME_DENIED_DIRS = [".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config/gh", ".config/gcloud"];
const SYSTEM_DENIED_DIRS = ["/etc/sudoers.d", "/etc/systemd"];

const SENSITIVE_PREFIXES = ["/etc/", "/boot/", "/usr/lib/systemd/", "/private/etc/", "/private/var/"];
// macOS keeps every user's temp and cache folders under /private/var/folders (what os.tmpdir() resolves to);
// refusing them as "system paths" would forbid ordinary scratch files, so they are let through on purpose.
const SENSITIVE_PREFIX_EXCEPTIONS = ["/private/var/folders/"];
const SENSITIVE_EXACT = ["/var/run/docker.sock", "/run/docker.sock"];

/** The message for a refused write, or undefined when `path` may be written. */
export function writeDeniedError(path: string, options: WriteDenyOptions): string | undefined {
  const verb = options.verb ?? "Write";
  const expanded = expandHome(path, options.home);
  const resolved = realPath(expanded);
  const sensitive = sensitiveSystemPath(path, expanded, resolved);
  if (sensitive) return sensitive;
  if (isHermesConfig(resolved, options)) {
    return (
      `Refusing to write to Hermes config file: ${path}\n` +
      "Agent cannot modify security-sensitive configuration. Edit ~/.hermes/config.yaml directly or use 'hermes config' instead."
    );
  }
  if (isCredentialTarget(resolved, options)) return `${verb} denied: '${path}' is a protected system/credential file.`;
  const roots = safeWriteRoots(options);
  if (roots.length > 0 && !roots.some((root) => isSameOrUnder(resolved, root))) {
    return (
      `${verb} denied: '${path}' is outside HERMES_WRITE_SAFE_ROOT (${roots.join(delimiter)}). ` +
      "Unset the variable or add this path's directory prefix."
    );
  }
  return undefined;
}

function sensitiveSystemPath(raw: string, expanded: string, resolved: string): string | undefined {
  // Upstream tests the raw, normalised and resolved spellings: /etc may be a link (macOS: /private/etc).
  const spellings = [
    expanded.replaceAll("\\", "/"),
    normalize(expanded).replaceAll("\\", "/"),
    resolved.replaceAll("\\", "/"),
  ];
  const hit = spellings.some(
    (p) =>
      SENSITIVE_EXACT.includes(p) ||
      (SENSITIVE_PREFIXES.some((prefix) => p.startsWith(prefix)) &&
        !SENSITIVE_PREFIX_EXCEPTIONS.some((ok) => p.startsWith(ok))),
  );
  if (!hit) return undefined;
  return `Refusing to write to sensitive system path: ${raw}\nUse the terminal tool with sudo if you need to modify system files.`;
}

function isHermesConfig(resolved: string, options: WriteDenyOptions): boolean {
  return hermesDirs(options.hermesHome, options.home).some((dir) => resolved === realPath(join(dir, "config.yaml")));
}

function isCredentialTarget(resolved: string, options: WriteDenyOptions): boolean {
  const { home, hermesHome } = options;
  const root = hermesRootOf(hermesHome, home);
  const exact = [
    ...HOME_DENIED_FILES.map((p) => join(home, p)),
    ...HERMES_DENIED_FILES.flatMap((p) => [join(hermesHome, p), join(root, p)]),
    ...SYSTEM_DENIED_FILES,
  ];
  if (exact.some((p) => resolved === realPath(p))) return true;
  const dirs = [...HOME_DENIED_DIRS.map((p) => join(home, p)), ...SYSTEM_DENIED_DIRS];
  if (dirs.some((p) => isUnder(resolved, realPath(p)))) return true;
  // Application state (transcripts can be falsified) and token stores, in the active profile, the root and, as
  // upstream later added, every other profile: a prompt-injected write must not reach another profile either.
  const stateDirs = [...hermesDirs(hermesHome, home), ...profileDirs(root)];
  return stateDirs.some(
    (dir) =>
      resolved === realPath(join(dir, "state.db")) ||
      // The scanner's remembered verdicts (scan-verdicts.ts): a written one would let a payload pass as clean.
      resolved === realPath(scanVerdictsFileOf(dir)) ||
      ["sessions", "mcp-tokens", "pairing"].some((name) => isSameOrUnder(resolved, realPath(join(dir, name)))),
  );
}

function safeWriteRoots(options: WriteDenyOptions): string[] {
  const raw = options.env?.HERMES_WRITE_SAFE_ROOT ?? "";
  const roots = raw
    .split(delimiter)
    .filter((p) => p.length > 0)
    .map((p) => realPath(expandHome(p, options.home)));
  return [...new Set(roots)].sort();
}

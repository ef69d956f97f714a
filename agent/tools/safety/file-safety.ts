import { lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join, normalize, resolve, sep } from "node:path";
import type { Env } from "../../config/hermes-home.js";

/**
 * Upstream's file write-deny and read-deny rules (agent/file_safety.py and the extra write guard of
 * tools/file_tools.py), with the same messages. Everything that locates "home" comes in as an argument: the caller
 * decides where the user's home and HERMES_HOME are, so tests can point them at temporary folders.
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

export interface ReadBlockOptions {
  readonly hermesHome: string;
  /** The user's home; only used to recognise a profile under ~/.hermes. */
  readonly home?: string;
}

const DEFENSE_NOTE = "(Defense-in-depth — not a security boundary; the terminal tool can still bypass.)";

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

const READ_CREDENTIAL_FILES = [
  "auth.json",
  "auth.lock",
  ".anthropic_oauth.json",
  ".env",
  "webhook_subscriptions.json",
  "auth/google_oauth.json",
  "cache/bws_cache.json",
];
const SECRET_ENV_BASENAMES = new Set([".env", ".env.local", ".env.development", ".env.production", ".env.test", ".env.staging", ".envrc"]);

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

/** The message for a refused read (upstream's four rules, in order), or undefined when `path` may be read. */
export function readBlockedError(path: string, options: ReadBlockOptions): string | undefined {
  const resolved = realPath(options.home ? expandHome(path, options.home) : path);
  const dirs = hermesDirs(options.hermesHome, options.home);
  for (const dir of dirs) {
    if (isSameOrUnder(resolved, realPath(join(dir, "skills", ".hub")))) {
      return (
        `Access denied: ${path} is an internal Hermes cache file and cannot be read directly to prevent prompt injection. ` +
        "Use the skills_list or skill_view tools instead."
      );
    }
  }
  for (const dir of dirs) {
    if (READ_CREDENTIAL_FILES.some((name) => resolved === realPath(join(dir, name)))) {
      return (
        `Access denied: ${path} is a Hermes credential store and cannot be read directly. ` +
        `Provider tools consume these credentials through internal channels. ${DEFENSE_NOTE}`
      );
    }
  }
  for (const dir of dirs) {
    const tokens = realPath(join(dir, "mcp-tokens"));
    if (resolved === tokens) return `Access denied: ${path} is the Hermes MCP token directory and cannot be read directly. ${DEFENSE_NOTE}`;
    if (isUnder(resolved, tokens)) return `Access denied: ${path} is a Hermes MCP token file and cannot be read directly. ${DEFENSE_NOTE}`;
  }
  if (isSecretEnvFileName(basename(resolved))) {
    return (
      `Access denied: ${path} is a secret-bearing environment file and cannot be read to prevent credential leakage. ` +
      `If you need to check the file structure, read .env.example instead. ${DEFENSE_NOTE}`
    );
  }
  return undefined;
}

/** Project .env files that read-deny covers anywhere on disk (search skips them cheaply by name). */
export function isSecretEnvFileName(name: string): boolean {
  return SECRET_ENV_BASENAMES.has(name.toLowerCase());
}

/**
 * The Hermes root: `<root>` for a profile home `<root>/profiles/<name>`, ~/.hermes for anything under it,
 * else HERMES_HOME itself (Docker and custom installs), as upstream's get_default_hermes_root.
 */
export function hermesRootOf(hermesHome: string, home?: string): string {
  if (home) {
    const native = join(home, ".hermes");
    if (isSameOrUnder(realPath(hermesHome), realPath(native))) return native;
  }
  return basename(dirname(hermesHome)) === "profiles" ? dirname(dirname(hermesHome)) : hermesHome;
}

/**
 * The real path of `path`: symlinks of its longest existing prefix resolved, the missing rest appended. A write
 * through a link lands on the link's target, so that target is what the rules must judge.
 */
export function realPath(path: string, depth = 0): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  let head = absolute;
  for (;;) {
    try {
      return join(realpathSync(head), ...missing.reverse());
    } catch {
      const target = danglingLinkTarget(head);
      if (target !== undefined && depth < 40) return join(realPath(resolve(dirname(head), target), depth + 1), ...missing.reverse());
      const parent = dirname(head);
      if (parent === head) return absolute;
      missing.push(basename(head));
      head = parent;
    }
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function sensitiveSystemPath(raw: string, expanded: string, resolved: string): string | undefined {
  // Upstream tests the raw, normalised and resolved spellings: /etc may be a link (macOS: /private/etc).
  const spellings = [expanded.replaceAll("\\", "/"), normalize(expanded).replaceAll("\\", "/"), resolved.replaceAll("\\", "/")];
  const hit = spellings.some(
    (p) =>
      SENSITIVE_EXACT.includes(p) ||
      (SENSITIVE_PREFIXES.some((prefix) => p.startsWith(prefix)) && !SENSITIVE_PREFIX_EXCEPTIONS.some((ok) => p.startsWith(ok))),
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

function hermesDirs(hermesHome: string, home?: string): string[] {
  return [...new Set([realPath(hermesHome), realPath(hermesRootOf(hermesHome, home))])];
}

function profileDirs(root: string): string[] {
  try {
    const profiles = join(root, "profiles");
    return readdirSync(profiles, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => realPath(join(profiles, e.name)));
  } catch {
    return [];
  }
}

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(path);
}

function isUnder(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function isSameOrUnder(path: string, dir: string): boolean {
  return path === dir || isUnder(path, dir);
}

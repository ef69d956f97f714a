import { basename, join } from "node:path";
import { HERMES_CREDENTIAL_FILES, HOME_CREDENTIAL_DIRS, HOME_CREDENTIAL_FILES } from "./credential-locations.js";
import { hermesDirs } from "./hermes-dirs.js";
import { expandHome, isSameOrUnder, isUnder, realPath } from "./real-path.js";

/**
 * What the file tools never read, in any mode: upstream's four read-deny rules (agent/file_safety.py, same messages)
 * plus the user's own credentials (SSH keys, cloud, registry and Git tokens), which upstream only guards against
 * writes. Every rule judges the resolved path, so a link into a denied place is denied too.
 */
export interface ReadBlockOptions {
  readonly hermesHome: string;
  /** The user's home: for a profile under ~/.hermes and for the credential files under ~. */
  readonly home?: string;
}

const DEFENSE_NOTE = "(Defense-in-depth — not a security boundary; the terminal tool can still bypass.)";

const SECRET_ENV_BASENAMES = new Set([
  ".env",
  ".env.local",
  ".env.development",
  ".env.production",
  ".env.test",
  ".env.staging",
  ".envrc",
]);

// An SSH private key is a secret wherever a copy of it lies.
const PRIVATE_KEY_NAMES = new Set(["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"]);
const SYSTEM_CREDENTIAL_FILES = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers"];

export type ReadDenial = "hub" | "credential_store" | "mcp_token_dir" | "mcp_token" | "env_file" | "user_credential";

/**
 * The read-deny rules with every protected location resolved once, so a search can judge thousands of files with
 * string comparisons only (each file's own path must already be resolved).
 */
export class ReadDenyRules {
  private readonly hubs: string[];
  private readonly stores: Set<string>;
  private readonly tokenDirs: string[];
  private readonly userFiles: Set<string>;
  private readonly userDirs: string[];

  constructor(readonly options: ReadBlockOptions) {
    const dirs = hermesDirs(options.hermesHome, options.home);
    this.hubs = dirs.map((dir) => realPath(join(dir, "skills", ".hub")));
    this.stores = new Set(dirs.flatMap((dir) => HERMES_CREDENTIAL_FILES.map((name) => realPath(join(dir, name)))));
    this.tokenDirs = dirs.map((dir) => realPath(join(dir, "mcp-tokens")));
    const home = options.home;
    this.userFiles = new Set([
      ...(home ? HOME_CREDENTIAL_FILES.map((f) => realPath(join(home, f))) : []),
      ...SYSTEM_CREDENTIAL_FILES.map((f) => realPath(f)),
    ]);
    this.userDirs = home ? HOME_CREDENTIAL_DIRS.map((d) => realPath(join(home, d))) : [];
  }

  /** Which rule refuses `resolved` (a path from realPath), if any; the order is upstream's. */
  denialOf(resolved: string): ReadDenial | undefined {
    if (this.hubs.some((hub) => isSameOrUnder(resolved, hub))) return "hub";
    if (this.stores.has(resolved)) return "credential_store";
    if (this.tokenDirs.includes(resolved)) return "mcp_token_dir";
    if (this.tokenDirs.some((dir) => isUnder(resolved, dir))) return "mcp_token";
    const name = basename(resolved);
    if (isSecretEnvFileName(name)) return "env_file";
    if (
      PRIVATE_KEY_NAMES.has(name) ||
      this.userFiles.has(resolved) ||
      this.userDirs.some((dir) => isSameOrUnder(resolved, dir))
    )
      return "user_credential";
    return undefined;
  }

  /** The message for a refused read of `path` (as the model wrote it), or undefined when it may be read. */
  check(path: string): string | undefined {
    const resolved = realPath(this.options.home ? expandHome(path, this.options.home) : path);
    const denial = this.denialOf(resolved);
    return denial && readDenialMessage(denial, path);
  }
}

/** The message for a refused read (upstream's four rules, in order, then the user's credentials), or undefined. */
export function readBlockedError(path: string, options: ReadBlockOptions): string | undefined {
  return new ReadDenyRules(options).check(path);
}

export function readDenialMessage(denial: ReadDenial, path: string): string {
  switch (denial) {
    case "hub":
      return (
        `Access denied: ${path} is an internal Hermes cache file and cannot be read directly to prevent prompt injection. ` +
        "Use the skills_list or skill_view tools instead."
      );
    case "credential_store":
      return (
        `Access denied: ${path} is a Hermes credential store and cannot be read directly. ` +
        `Provider tools consume these credentials through internal channels. ${DEFENSE_NOTE}`
      );
    case "mcp_token_dir":
      return `Access denied: ${path} is the Hermes MCP token directory and cannot be read directly. ${DEFENSE_NOTE}`;
    case "mcp_token":
      return `Access denied: ${path} is a Hermes MCP token file and cannot be read directly. ${DEFENSE_NOTE}`;
    case "env_file":
      return (
        `Access denied: ${path} is a secret-bearing environment file and cannot be read to prevent credential leakage. ` +
        `If you need to check the file structure, read .env.example instead. ${DEFENSE_NOTE}`
      );
    case "user_credential":
      return (
        `Access denied: ${path} holds credentials (SSH keys, cloud, registry or Git tokens) and is never read, in any mode. ` +
        "If the task needs something from it, ask the user for that detail instead."
      );
  }
}

/** Project .env files that read-deny covers anywhere on disk (search skips them cheaply by name). */
export function isSecretEnvFileName(name: string): boolean {
  return SECRET_ENV_BASENAMES.has(name.toLowerCase());
}

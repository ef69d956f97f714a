/**
 * Where credentials live: one list for every wall that keeps them out of the model's reach. The file tools never
 * read them (security/read-deny.ts) and the OS sandbox makes them unreadable to commands
 * (sandbox/credential-paths.ts). Paths are relative to the user's home or to HERMES_HOME.
 */

/** Folders under ~ that hold keys, tokens, or lists of them. */
export const HOME_CREDENTIAL_DIRS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".azure",
  ".config/gh",
  ".config/gcloud",
  ".config/op",
  ".password-store",
  ".local/share/keyrings",
];

/** Single files under ~. */
export const HOME_CREDENTIAL_FILES = [
  ".netrc",
  ".pgpass",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".docker/config.json",
  ".vault-token",
  ".config/hub",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
];

/** Hermes' own credential stores under HERMES_HOME (upstream's read-deny list, plus the MCP token folder). */
export const HERMES_CREDENTIAL_FILES = [
  "auth.json",
  "auth.lock",
  ".anthropic_oauth.json",
  ".env",
  "webhook_subscriptions.json",
  "auth/google_oauth.json",
  "cache/bws_cache.json",
  "cache/bws_cache.enc.json",
];

/**
 * Files and folders under ~ that a shell, the desktop or a tool reads at start-up and runs code from: writing one
 * plants a command in every later session. The gate asks before a command writes one (tools/safety/
 * command-word-rules.ts) and the sandbox keeps them read-only (sandbox/sandbox-policy.ts). Folders cover what is
 * inside them.
 */
export const HOME_STARTUP_FILES = [
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
  ".kshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".logout",
  ".inputrc",
  ".xinitrc",
  ".xprofile",
  ".xsession",
  ".xsessionrc",
  ".gitconfig",
  ".curlrc",
  ".wgetrc",
  ".vimrc",
  ".exrc",
  ".tmux.conf",
  ".screenrc",
];
export const HOME_STARTUP_DIRS = [
  ".config/fish",
  ".config/autostart",
  ".config/systemd/user",
  ".config/environment.d",
  ".config/git",
  ".local/share/systemd",
  "Library/LaunchAgents",
];

import { join } from "node:path";

/**
 * Where credentials live, relative to the user's home and to HERMES_HOME: what the sandbox makes unreadable to every
 * command, in every mode (an empty folder or an empty file appears in their place).
 */
const HOME_CREDENTIALS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".config/gh",
  ".config/gcloud",
  ".config/hub",
  ".config/op",
  ".password-store",
  ".netrc",
  ".git-credentials",
  ".pgpass",
  ".npmrc",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
  ".local/share/keyrings",
];

const HERMES_CREDENTIALS = [".env", "auth.json", "auth.lock", ".anthropic_oauth.json", "auth", "mcp-tokens", "cache/bws_cache.json", "cache/bws_cache.enc.json", "webhook_subscriptions.json"];

export function credentialPaths(home: string, hermesHome: string): string[] {
  return [...HOME_CREDENTIALS.map((p) => join(home, p)), ...HERMES_CREDENTIALS.map((p) => join(hermesHome, p))];
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

import type { Env } from "./hermes-home.js";
import { loadHermesConfig } from "./load-config.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** config.yaml `browser:` as the browser tools read it (upstream's keys where upstream has them). */
export interface BrowserSettings {
  /**
   * `browser.executable_path` (ours: upstream's agent-browser takes `AGENT_BROWSER_EXECUTABLE_PATH`, also honoured):
   * the Chromium or Chrome to drive. Unset: the system's, found in the usual places.
   */
  readonly executablePath: string | undefined;
  /**
   * `browser.allow_localhost` (ours, default true): pages may load from loopback addresses. An editor user tests their
   * own app on a local dev server; the rest of the private network stays refused.
   */
  readonly allowLocalhost: boolean;
  /** `browser.allow_private_urls` / `security.allow_private_urls` / HERMES_ALLOW_PRIVATE_URLS: every private address. */
  readonly allowPrivateUrls: boolean;
  /** `browser.command_timeout` seconds (upstream: default 30, at least 5): the deadline of one browser action. */
  readonly commandTimeoutMs: number;
  /**
   * `browser.inactivity_timeout` seconds (upstream: default 120, at least 30; BROWSER_INACTIVITY_TIMEOUT when unset):
   * an unused browser is closed after this long, and the next call starts a fresh one.
   */
  readonly inactivityTimeoutMs: number;
}

/** Reads config.yaml and the environment of `home`, afresh (an edit applies to the next call). Throws ConfigError. */
export function loadBrowserSettings(home: string, processEnv: Env): BrowserSettings {
  const config = loadHermesConfig({ ...processEnv, HERMES_HOME: home });
  return readBrowserSettings(config.yaml, config.env);
}

/** A wrong value is a ConfigError on its line rather than a silent default. */
export function readBrowserSettings(yaml: YamlFile, env: Env): BrowserSettings {
  const section = yaml.data.browser;
  if (section !== undefined && section !== null && (typeof section !== "object" || Array.isArray(section)))
    throw configErrorAt(yaml, ["browser"], "`browser` must be a mapping (executable_path, allow_localhost, …)");
  const browser = (section ?? {}) as Record<string, unknown>;
  return {
    executablePath:
      executablePath(yaml, browser.executable_path) ?? (env.AGENT_BROWSER_EXECUTABLE_PATH?.trim() || undefined),
    allowLocalhost: flag(yaml, "allow_localhost", browser.allow_localhost, true),
    allowPrivateUrls: allowPrivateUrls(yaml, browser, env),
    commandTimeoutMs: seconds(yaml, "command_timeout", browser.command_timeout, 30, 5) * 1000,
    inactivityTimeoutMs:
      seconds(yaml, "inactivity_timeout", browser.inactivity_timeout ?? env.BROWSER_INACTIVITY_TIMEOUT, 120, 30) * 1000,
  };
}

function executablePath(yaml: YamlFile, value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string")
    throw configErrorAt(yaml, ["browser", "executable_path"], "browser.executable_path must be a file path");
  return value.trim() || undefined;
}

function flag(yaml: YamlFile, key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "boolean") return value;
  const text = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (["true", "yes", "on", "1"].includes(text)) return true;
  if (["false", "no", "off", "0"].includes(text)) return false;
  throw configErrorAt(yaml, ["browser", key], `browser.${key} must be true or false`);
}

/** The environment decides first (as for the web tools), then either section of config.yaml. */
function allowPrivateUrls(yaml: YamlFile, browser: Record<string, unknown>, env: Env): boolean {
  const fromEnv = env.HERMES_ALLOW_PRIVATE_URLS?.trim().toLowerCase();
  if (fromEnv === "true" || fromEnv === "1" || fromEnv === "yes") return true;
  if (fromEnv === "false" || fromEnv === "0" || fromEnv === "no") return false;
  const security = yaml.data.security;
  const fromSecurity =
    typeof security === "object" && security !== null
      ? (security as Record<string, unknown>).allow_private_urls
      : undefined;
  return flag(yaml, "allow_private_urls", browser.allow_private_urls, false) || fromSecurity === true;
}

/** Seconds with upstream's default and floor; a value that is not a number is a ConfigError on its line. */
function seconds(yaml: YamlFile, key: string, value: unknown, fallback: number, floor: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw configErrorAt(yaml, ["browser", key], `browser.${key} must be a number of seconds`);
  return Math.max(floor, n);
}

import type { YamlFile } from "./yaml-file.js";
import { configErrorAt } from "./yaml-file.js";

export type ApprovalsMode = "manual" | "smart" | "off";

/** config.yaml settings the tools obey, with upstream's defaults. */
export interface ToolSettings {
  /** config.yaml path, where "always" approvals are written (`command_allowlist`). */
  readonly configPath: string;
  /** Exact commands or globs (with * ? [) the user allowed permanently. */
  readonly commandAllowlist: readonly string[];
  /** `approvals.deny` globs: never run, whatever the mode. */
  readonly denyGlobs: readonly string[];
  readonly approvalsMode: ApprovalsMode;
  /** `agent.max_turns`: model calls per user turn before the loop stops (upstream default 90). */
  readonly maxTurns: number;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
  /** `terminal.timeout`: default seconds a foreground command may run. */
  readonly terminalTimeoutSeconds: number;
  /** `terminal.sandbox`: the OS sandbox around the agent's commands. */
  readonly sandbox: SandboxSettings;
  /** `terminal.env_passthrough` (upstream's key): secret-looking variables the user lets commands see. */
  readonly envPassthrough: readonly string[];
}

/**
 * `terminal.sandbox: off` (or false) runs commands unconfined; otherwise a mapping `{ network: allow | deny,
 * writable: [paths] }`. Network is allowed by default: builds and package managers need their registries.
 */
export interface SandboxSettings {
  readonly enabled: boolean;
  readonly network: "allow" | "deny";
  /** Extra folders commands may write to (besides the workspace and the temp folder), `~` expanded by the caller. */
  readonly writable: readonly string[];
}

/**
 * `env`: HERMES_SANDBOX_NETWORK=deny (what an editor's "no network for commands" setting sets) denies the network
 * to contained commands whatever config.yaml says. It only tightens: `allow` there never opens what config.yaml
 * closed, so an editor setting cannot loosen a policy the user wrote down.
 */
export function readToolSettings(yaml: YamlFile, env: Readonly<Record<string, string | undefined>> = {}): ToolSettings {
  const approvals = mapping(yaml, "approvals");
  const agent = mapping(yaml, "agent");
  const memory = mapping(yaml, "memory");
  const terminal = mapping(yaml, "terminal");
  return {
    configPath: yaml.file,
    commandAllowlist: stringList(yaml, ["command_allowlist"], yaml.data.command_allowlist),
    denyGlobs: stringList(yaml, ["approvals", "deny"], approvals.deny),
    approvalsMode: approvalsModeOf(approvals.mode),
    maxTurns: positiveInt(yaml, ["agent", "max_turns"], agent.max_turns) ?? 90,
    memoryCharLimit: positiveInt(yaml, ["memory", "memory_char_limit"], memory.memory_char_limit) ?? 2200,
    userCharLimit: positiveInt(yaml, ["memory", "user_char_limit"], memory.user_char_limit) ?? 1375,
    terminalTimeoutSeconds: positiveInt(yaml, ["terminal", "timeout"], terminal.timeout) ?? 180,
    sandbox: withNetworkFrom(env, sandboxSettingsOf(yaml, terminal.sandbox)),
    envPassthrough: stringList(yaml, ["terminal", "env_passthrough"], terminal.env_passthrough),
  };
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { enabled: true, network: "allow", writable: [] };

function withNetworkFrom(env: Readonly<Record<string, string | undefined>>, sandbox: SandboxSettings): SandboxSettings {
  return env.HERMES_SANDBOX_NETWORK === "deny" ? { ...sandbox, network: "deny" } : sandbox;
}

function sandboxSettingsOf(yaml: YamlFile, value: unknown): SandboxSettings {
  if (value === undefined || value === null || value === true || value === "on") return DEFAULT_SANDBOX_SETTINGS;
  if (value === false || value === "off") return { ...DEFAULT_SANDBOX_SETTINGS, enabled: false };
  if (typeof value !== "object" || Array.isArray(value))
    throw configErrorAt(yaml, ["terminal", "sandbox"], "terminal.sandbox must be off or a mapping (network, writable)");
  const fields = value as Record<string, unknown>;
  const network = fields.network ?? "allow";
  if (network !== "allow" && network !== "deny")
    throw configErrorAt(yaml, ["terminal", "sandbox", "network"], "terminal.sandbox.network must be allow or deny");
  const enabled = fields.enabled === undefined ? true : fields.enabled !== false && fields.enabled !== "off";
  return { enabled, network, writable: stringList(yaml, ["terminal", "sandbox", "writable"], fields.writable) };
}

/** Upstream: YAML `off`/false → off, true → manual, "smart"/"manual" as written, anything else → manual. */
function approvalsModeOf(value: unknown): ApprovalsMode {
  if (value === false || value === "off") return "off";
  if (value === "smart") return "smart";
  return "manual";
}

function mapping(yaml: YamlFile, key: string): Record<string, unknown> {
  const value = yaml.data[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw configErrorAt(yaml, [key], `\`${key}\` must be a mapping`);
  return value as Record<string, unknown>;
}

function stringList(yaml: YamlFile, path: string[], value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw configErrorAt(yaml, path, `${path.join(".")} must be a list of strings`);
  return value as string[];
}

function positiveInt(yaml: YamlFile, path: string[], value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0)
    throw configErrorAt(yaml, path, `${path.join(".")} must be a positive whole number`);
  return value;
}

import { ConfigError, type ConfigProblem } from "./config-error.js";
import { expandVariables } from "./config-variables.js";
import type { Env } from "./hermes-home.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/**
 * config.yaml `mcp_servers:`, the MCP servers a Python Hermes user already declared, in upstream's keys:
 *
 * ```yaml
 * mcp_servers:
 *   github:                      # stdio: command, args, env
 *     command: npx
 *     args: ["-y", "@modelcontextprotocol/server-github"]
 *     env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" }
 *     tools: { include: [list_issues, create_issue] }
 *   remote:                      # http: url, headers (`transport: sse` for the older SSE transport)
 *     url: https://mcp.example.com/mcp
 *     headers: { Authorization: "Bearer ${REMOTE_TOKEN}" }
 *     timeout: 120               # seconds a tool call may take
 *     connect_timeout: 30        # seconds the server may take to start
 *   old: { command: legacy-server, enabled: false }
 * ```
 *
 * Unlike the other readers, a wrong entry does not throw: it is one server the user cannot have, so it becomes a
 * problem (file and line) told in the session while every other server starts.
 */

export interface McpNameValue {
  readonly name: string;
  readonly value: string;
}

/** What an entry says beyond its transport. */
export interface McpServerPolicy {
  /** `connect_timeout`: how long the server may take to start and list its tools. */
  readonly connectTimeoutMs?: number;
  /** `timeout`: how long one tool call may stay silent. */
  readonly toolTimeoutMs?: number;
  /** `tools.include`: only these of the server's own tool names are offered (wins over `exclude`, as upstream). */
  readonly include?: readonly string[];
  /** `tools.exclude`: these of the server's own tool names are not offered. */
  readonly exclude?: readonly string[];
}

/** A stdio server from config.yaml: it gets upstream's filtered environment plus its own `env`. */
export interface ConfiguredStdioServer {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly McpNameValue[];
  readonly environment: "safe";
  readonly policy: McpServerPolicy;
}

/** A remote server from config.yaml; without `transport: sse`, Streamable HTTP that falls back to SSE (upstream). */
export interface ConfiguredRemoteServer {
  readonly type: "http" | "sse";
  readonly name: string;
  readonly url: string;
  readonly headers: readonly McpNameValue[];
  readonly sseFallback: boolean;
  readonly policy: McpServerPolicy;
}

export type ConfiguredMcpServer = ConfiguredStdioServer | ConfiguredRemoteServer;

export interface McpServerSettings {
  readonly servers: readonly ConfiguredMcpServer[];
  /** Entries with `enabled: false`, skipped. */
  readonly disabled: readonly string[];
  /** Entries that cannot start as written, each with its file and line. */
  readonly problems: readonly ConfigProblem[];
  /** `${VAR}`s with no value, per server: it starts with the placeholder left as written. */
  readonly unsetVariables: readonly { readonly server: string; readonly variables: readonly string[] }[];
}

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

/** Reads `mcp_servers`; `${VAR}`s come from `env` and the session's `workspaceFolder`. Never throws. */
export function readMcpServerSettings(yaml: YamlFile, env: Env, workspaceFolder: string): McpServerSettings {
  const section = yaml.data.mcp_servers;
  const settings = { servers: [], disabled: [], problems: [], unsetVariables: [] } as {
    servers: ConfiguredMcpServer[];
    disabled: string[];
    problems: ConfigProblem[];
    unsetVariables: { server: string; variables: string[] }[];
  };
  if (section === undefined || section === null) return settings;
  if (!isMapping(section)) {
    settings.problems.push(
      configErrorAt(yaml, ["mcp_servers"], "`mcp_servers` must be a mapping of server names to their settings").problem,
    );
    return settings;
  }
  for (const [name, entry] of Object.entries(section)) {
    const reader = new EntryReader(yaml, name, env, workspaceFolder);
    try {
      const server = reader.server(entry);
      if (server) settings.servers.push(server);
      else settings.disabled.push(name);
      if (reader.unset.length > 0) settings.unsetVariables.push({ server: name, variables: reader.unset });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      settings.problems.push(error.problem);
    }
  }
  return settings;
}

/** One entry of `mcp_servers`; its checks throw ConfigError at the offending key. */
class EntryReader {
  readonly unset: string[] = [];

  constructor(
    private readonly yaml: YamlFile,
    private readonly name: string,
    private readonly env: Env,
    private readonly workspaceFolder: string,
  ) {}

  /** The server, or undefined when `enabled: false`. */
  server(entry: unknown): ConfiguredMcpServer | undefined {
    if (!isMapping(entry))
      throw this.error([], "must be a mapping with `command` (a local server) or `url` (a remote one)");
    if (!this.enabled(entry.enabled)) return undefined;
    const policy = this.policy(entry);
    // Upstream decides by `url`: an entry with both is a remote server.
    if (entry.url !== undefined && entry.url !== null) {
      const transport = entry.transport ?? "http";
      if (transport !== "http" && transport !== "sse" && transport !== "streamable_http")
        throw this.error(["transport"], "`transport` must be sse or http");
      return {
        type: transport === "sse" ? "sse" : "http",
        name: this.name,
        url: this.url(entry.url),
        headers: this.pairs(entry.headers, "headers"),
        // Only when the user named no transport: one pinned to http stays http.
        sseFallback: entry.transport === undefined,
        policy,
      };
    }
    if (entry.command === undefined || entry.command === null)
      throw this.error([], "needs `command` (a local server) or `url` (a remote one)");
    return {
      name: this.name,
      command: this.text(entry.command, ["command"]),
      args: this.args(entry.args),
      env: this.pairs(entry.env, "env"),
      environment: "safe",
      policy,
    };
  }

  private enabled(value: unknown): boolean {
    if (value === undefined || value === null || typeof value === "boolean") return value !== false;
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    throw this.error(["enabled"], "`enabled` must be true or false");
  }

  private policy(entry: Readonly<Record<string, unknown>>): McpServerPolicy {
    const tools = entry.tools ?? {};
    if (!isMapping(tools)) throw this.error(["tools"], "`tools` must be a mapping (include, exclude)");
    const include = this.names(tools.include, "include");
    const exclude = this.names(tools.exclude, "exclude");
    const connectTimeoutMs = this.seconds(entry.connect_timeout, "connect_timeout");
    const toolTimeoutMs = this.seconds(entry.timeout, "timeout");
    return {
      ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
      ...(toolTimeoutMs !== undefined ? { toolTimeoutMs } : {}),
      ...(include ? { include } : {}),
      ...(exclude ? { exclude } : {}),
    };
  }

  /** Seconds, as upstream writes them (YAML strings of numbers too), as milliseconds. */
  private seconds(value: unknown, key: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    const seconds = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0)
      throw this.error([key], `\`${key}\` must be a number of seconds above 0`);
    return Math.round(seconds * 1000);
  }

  /** `tools.include` / `tools.exclude`: one name or a list of them (upstream takes both). */
  private names(value: unknown, key: string): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    const list = typeof value === "string" ? [value] : value;
    if (!Array.isArray(list) || !list.every((item) => typeof item === "string"))
      throw this.error(["tools", key], `\`tools.${key}\` must be a tool name or a list of them`);
    return list as string[];
  }

  private args(value: unknown): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every(isScalar)) throw this.error(["args"], "`args` must be a list of strings");
    return value.map((item, i) => this.text(item, ["args", String(i)]));
  }

  /** `env` / `headers`: a mapping of names to scalar values, which are expanded. */
  private pairs(value: unknown, key: string): McpNameValue[] {
    if (value === undefined || value === null) return [];
    if (!isMapping(value) || !Object.values(value).every(isScalar))
      throw this.error([key], `\`${key}\` must be a mapping of names to values`);
    return Object.entries(value).map(([name, item]) => ({ name, value: this.text(item, [key, name]) }));
  }

  private url(value: unknown): string {
    const text = this.text(value, ["url"]);
    if (!/^https?:\/\//i.test(text)) throw this.error(["url"], "`url` must be an http:// or https:// address");
    return text;
  }

  /** A scalar as a string, its `${VAR}`s expanded. */
  private text(value: unknown, path: readonly string[]): string {
    if (!isScalar(value) || (typeof value === "string" && value.trim() === ""))
      throw this.error(path, `\`${path[0]}\` must be a non-empty string`);
    const expanded = expandVariables(String(value), this.env, this.workspaceFolder);
    for (const name of expanded.unset) if (!this.unset.includes(name)) this.unset.push(name);
    return expanded.text;
  }

  private error(path: readonly string[], message: string): ConfigError {
    return configErrorAt(this.yaml, ["mcp_servers", this.name, ...path], `mcp_servers.${this.name}: ${message}`);
  }
}

function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

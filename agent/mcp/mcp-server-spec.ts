import type { McpNameValue, McpServerPolicy } from "../config/mcp-server-settings.js";

export type { McpNameValue, McpServerPolicy };

/**
 * The MCP servers a session asks for, in the shapes ACP's `session/new` uses (stdio has no `type`; http and sse
 * carry one). Declared here rather than imported so `agent/` stays free of the ACP SDK; ACP's `McpServer[]` is
 * assignable to `McpServerSpec[]` as it is, and so are config.yaml's entries (config/mcp-server-settings.ts), which
 * add what only config.yaml says: a policy, the environment, the SSE fallback.
 */

/** A local server started as a child process that speaks MCP over its stdin/stdout. */
export interface McpStdioServerSpec {
  readonly type?: "stdio";
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Set over the agent's own environment, or over upstream's filtered one when `environment` is "safe". */
  readonly env?: readonly McpNameValue[];
  /** config.yaml's servers get upstream's filtered environment; the editor's servers the agent's whole one. */
  readonly environment?: "safe";
  readonly policy?: McpServerPolicy;
}

/** A remote server over Streamable HTTP. */
export interface McpHttpServerSpec {
  readonly type: "http";
  readonly name: string;
  readonly url: string;
  readonly headers?: readonly McpNameValue[];
  /** Retry over SSE when the server rejects Streamable HTTP at the first connect (upstream, for config.yaml's servers). */
  readonly sseFallback?: boolean;
  readonly policy?: McpServerPolicy;
}

/** A remote server over the older HTTP+SSE transport. */
export interface McpSseServerSpec {
  readonly type: "sse";
  readonly name: string;
  readonly url: string;
  readonly headers?: readonly McpNameValue[];
  readonly policy?: McpServerPolicy;
}

export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec | McpSseServerSpec;

/** The remote transports `connectMcpServers` can start, for ACP's `agentCapabilities.mcpCapabilities`. */
export const MCP_TRANSPORTS = { http: true, sse: true } as const;

export function mcpTransportOf(spec: McpServerSpec): "stdio" | "http" | "sse" {
  return spec.type ?? "stdio";
}

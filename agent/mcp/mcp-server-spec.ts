/**
 * The MCP servers a session asks for, in the shapes ACP's `session/new` uses (stdio has no `type`; http and sse
 * carry one). Declared here rather than imported so `agent/` stays free of the ACP SDK; ACP's `McpServer[]` is
 * assignable to `McpServerSpec[]` as it is.
 */

export interface McpNameValue {
  readonly name: string;
  readonly value: string;
}

/** A local server started as a child process that speaks MCP over its stdin/stdout. */
export interface McpStdioServerSpec {
  readonly type?: "stdio";
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Set over the agent's own environment. */
  readonly env?: readonly McpNameValue[];
}

/** A remote server over Streamable HTTP. */
export interface McpHttpServerSpec {
  readonly type: "http";
  readonly name: string;
  readonly url: string;
  readonly headers?: readonly McpNameValue[];
}

/** A remote server over the older HTTP+SSE transport. */
export interface McpSseServerSpec {
  readonly type: "sse";
  readonly name: string;
  readonly url: string;
  readonly headers?: readonly McpNameValue[];
}

export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec | McpSseServerSpec;

/** The remote transports `connectMcpServers` can start, for ACP's `agentCapabilities.mcpCapabilities`. */
export const MCP_TRANSPORTS = { http: true, sse: true } as const;

export function mcpTransportOf(spec: McpServerSpec): "stdio" | "http" | "sse" {
  return spec.type ?? "stdio";
}

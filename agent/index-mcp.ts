/**
 * A side entry of the front door (index.ts): the MCP client. A front end loads it with `import()` and only for a
 * session that has MCP servers, so the MCP SDK costs nothing to the others; re-exported from index.ts it would be
 * loaded with the engine by every session. Its types cost nothing and may be imported from anywhere.
 */
export {
  connectMcpServers,
  type McpConnectedServer,
  type McpConnections,
  type McpServerFailure,
} from "./mcp/mcp-connections.js";
export type { McpServerSpec } from "./mcp/mcp-server-spec.js";

/**
 * A side entry of the front door (index.ts): the MCP client. A front end loads it with `import()` and only for a
 * session that has MCP servers, so the MCP SDK costs nothing to the others; re-exported from index.ts it would be
 * loaded with the engine by every session.
 */
export { connectMcpServers } from "./mcp/mcp-connections.js";

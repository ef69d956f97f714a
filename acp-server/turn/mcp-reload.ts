import type { AcpSession } from "../session/acp-session.js";
import type { McpServerSet } from "../session/session-mcp.js";

/**
 * `/reload-mcp` (upstream's command): starts the session's MCP servers afresh from config.yaml as it is now and the
 * editor's list, swaps their tools into the conversation between turns (queued like /undo), then stops the old
 * servers. The new ones start before the old stop, so a reload that fails leaves nothing half-done.
 */
export async function reloadMcpCommand(session: AcpSession): Promise<string> {
  const mcp = session.mcp;
  if (!mcp) return "This session has no MCP servers to reload.";
  const next = await mcp.startAfresh();
  const replaced = await session.editHistory((conversation) => {
    const old = mcp.swap(next);
    const stale = new Set(old.tools);
    conversation.setTools([...conversation.tools.filter((tool) => !stale.has(tool)), ...next.tools]);
    return old;
  });
  // No conversation yet (Hermes not configured): the new tools join it when it opens.
  await (replaced ?? mcp.swap(next)).close();
  return formatReload(next);
}

/** What is connected now and what is not, as the reply says it. */
export function formatReload(set: McpServerSet): string {
  if (set.servers.length + set.failures.length + set.problems.length + set.disabled.length === 0)
    return "No MCP servers are configured: add them under `mcp_servers` in config.yaml (or in the editor), then run /reload-mcp.";
  const lines = ["MCP servers reloaded from config.yaml and the editor's list."];
  if (set.servers.length > 0) {
    lines.push(`Connected (${set.servers.length}):`);
    for (const server of set.servers) {
      const tools = server.tools.length === 1 ? "1 tool" : `${server.tools.length} tools`;
      const names = server.tools.length > 0 ? `: ${server.tools.join(", ")}` : "";
      lines.push(`  ${server.name} (${server.transport}), ${tools}${names}`);
    }
  } else {
    lines.push("Connected: none.");
  }
  if (set.failures.length > 0) {
    lines.push(`Failed (${set.failures.length}):`);
    for (const failure of set.failures) lines.push(`  ${failure.server}: ${failure.message}`);
  }
  if (set.problems.length > 0) {
    lines.push("Problems in config.yaml:");
    for (const problem of set.problems) lines.push(`  ${problem.title}: ${problem.description}`);
  }
  if (set.disabled.length > 0) lines.push(`Disabled in config.yaml (enabled: false): ${set.disabled.join(", ")}`);
  return lines.join("\n");
}

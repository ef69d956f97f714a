import type { Tool } from "../tools/tool.js";
import { TOOLSETS, toolsetsOf } from "../tools/toolsets.js";

/** Upstream's DELEGATE_BLOCKED_TOOLS: no recursion, no questions to the user, no shared memory writes, no scripts. */
export const DELEGATE_BLOCKED_TOOLS: ReadonlySet<string> = new Set([
  "delegate_task",
  "clarify",
  "memory",
  "send_message",
  "execute_code",
]);

function inToolset(toolName: string, toolset: string): boolean {
  if (toolset === "browser") return toolName.startsWith("browser_");
  return TOOLSETS[toolset]?.includes(toolName) ?? false;
}

/**
 * The tools a subagent gets: the parent's, less the blocked ones, narrowed to the `requested` toolsets when given.
 * Toolsets the parent lacks (web in a session without it) are ignored, as upstream intersects with the parent's.
 * MCP tools stay whatever is requested (upstream's `inherit_mcp_toolsets`, on by default): the user connected
 * those servers for this session, and a subagent asked to do the work may need them.
 */
export function childTools(parentTools: readonly Tool[], requested: readonly string[] | undefined): Tool[] {
  const allowed = parentTools.filter((tool) => !DELEGATE_BLOCKED_TOOLS.has(tool.name));
  if (!requested || requested.length === 0) return allowed;
  const wanted = requested.map((name) => name.trim().toLowerCase());
  return allowed.filter(
    (tool) => tool.name.startsWith("mcp_") || wanted.some((toolset) => inToolset(tool.name, toolset)),
  );
}

/** Toolset names a subagent can usefully ask for in this session (MCP ones come anyway), for the tool's description. */
export function availableToolsets(parentTools: readonly Tool[]): string[] {
  const allowed = parentTools.filter((tool) => !DELEGATE_BLOCKED_TOOLS.has(tool.name)).map((tool) => tool.name);
  return [...toolsetsOf(allowed)].filter((name) => !name.startsWith("mcp-")).sort();
}

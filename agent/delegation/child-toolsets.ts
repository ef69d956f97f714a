import type { Tool } from "../tools/tool.js";

/**
 * Upstream's DELEGATE_BLOCKED_TOOLS as its delegate_task description names them: no recursion, no questions to the
 * user, no shared memory writes, no scripts. The tools of this port that are blocked say so in their definitions
 * (`blockedInSubagents`, execute_code among them); `send_message` is an upstream tool this port does not have.
 */
export const DELEGATE_BLOCKED_TOOLS: readonly string[] = [
  "delegate_task",
  "clarify",
  "memory",
  "send_message",
  "execute_code",
];

const blocked = (tool: Tool): boolean => tool.blockedInSubagents === true;

/**
 * The tools a subagent gets: the parent's, less the blocked ones, narrowed to the `requested` toolsets when given.
 * Toolsets the parent lacks (web in a session without it) are ignored, as upstream intersects with the parent's.
 * MCP tools stay whatever is requested (upstream's `inherit_mcp_toolsets`, on by default): the user connected
 * those servers for this session, and a subagent asked to do the work may need them.
 */
export function childTools(parentTools: readonly Tool[], requested: readonly string[] | undefined): Tool[] {
  const allowed = parentTools.filter((tool) => !blocked(tool));
  if (!requested || requested.length === 0) return allowed;
  const wanted = requested.map((name) => name.trim().toLowerCase());
  return allowed.filter(
    (tool) => tool.name.startsWith("mcp_") || tool.toolsets.some((toolset) => wanted.includes(toolset)),
  );
}

/** Toolset names a subagent can usefully ask for in this session (MCP ones come anyway), for the tool's description. */
export function availableToolsets(parentTools: readonly Tool[]): string[] {
  const toolsets = new Set(parentTools.filter((tool) => !blocked(tool)).flatMap((tool) => tool.toolsets));
  return [...toolsets].filter((name) => !name.startsWith("mcp-")).sort();
}

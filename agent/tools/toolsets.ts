import { builtInTool } from "./registry.js";

/**
 * The toolset a tool outside the definitions belongs to, by upstream's naming: browser tools share a prefix; MCP
 * tools (`mcp_<server>_<tool>`) form upstream's `mcp-<server>` toolsets (exact unless the server's name has an
 * underscore). Skills name toolsets in `requires_toolsets`/`fallback_for_toolsets`, and subagents ask for toolsets.
 */
function toolsetsByName(name: string): readonly string[] {
  if (name.startsWith("browser_")) return ["browser"];
  if (name.startsWith("mcp_")) return [mcpToolset(name)];
  return [];
}

/** The toolset of an MCP tool named `mcp_<server>_<tool>`. */
export const mcpToolset = (name: string): string => `mcp-${name.slice(4).split("_")[0]}`;

const toolsetsOfName = (name: string): readonly string[] => builtInTool(name)?.toolsets ?? toolsetsByName(name);

/** The toolsets a session has, from its tools' names: every toolset with at least one of the tools. */
export function toolsetsOf(toolNames: Iterable<string>): Set<string> {
  const toolsets = new Set<string>();
  for (const name of toolNames) {
    for (const toolset of toolsetsOfName(name)) toolsets.add(toolset);
  }
  return toolsets;
}

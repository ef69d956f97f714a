import { builtInTool } from "./registry.js";
import type { Tool } from "./tool.js";

/**
 * The toolset a tool outside the definitions belongs to, by upstream's naming: browser tools share a prefix; MCP
 * tools (`mcp_<server>_<tool>`) form upstream's `mcp-<server>` toolsets (exact unless the server's name has an
 * underscore). Skills name toolsets in `requires_toolsets`/`fallback_for_toolsets`, and subagents ask for toolsets.
 */
function toolsetsByName(name: string): readonly string[] {
  if (name.startsWith("browser_")) return ["browser"];
  if (name.startsWith("mcp_")) return [`mcp-${name.slice(4).split("_")[0]}`];
  return [];
}

/** The toolsets one tool is in: its definition's (upstream's toolsets.py), else by its name. */
export function toolsetsOfTool(tool: Pick<Tool, "name" | "toolsets">): readonly string[] {
  return tool.toolsets ?? toolsetsOfName(tool.name);
}

const toolsetsOfName = (name: string): readonly string[] => builtInTool(name)?.toolsets ?? toolsetsByName(name);

/** The toolsets a session has, from its tools' names: every toolset with at least one of the tools. */
export function toolsetsOf(toolNames: Iterable<string>): Set<string> {
  const toolsets = new Set<string>();
  for (const name of toolNames) {
    for (const toolset of toolsetsOfName(name)) toolsets.add(toolset);
  }
  return toolsets;
}

/**
 * Upstream's toolsets (toolsets.py) by the tool names this port uses (`process` and `todo` are upstream's older
 * names for `process_manage` and `todo_list`). Skills name toolsets in `requires_toolsets`/`fallback_for_toolsets`,
 * and subagents ask for toolsets rather than tools.
 */
export const TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  terminal: ["terminal", "process"],
  file: ["read_file", "write_file", "patch", "search_files"],
  web: ["web_search", "web_extract"],
  search: ["web_search"],
  vision: ["vision_analyze"],
  image_gen: ["image_generate"],
  skills: ["skills_list", "skill_view", "skill_manage"],
  tts: ["text_to_speech"],
  todo: ["todo"],
  memory: ["memory"],
  session_search: ["session_search"],
  clarify: ["clarify"],
  code_execution: ["execute_code"],
  delegation: ["delegate_task"],
  cronjob: ["cronjob_manage"],
};

/**
 * The toolsets a session has: every toolset with at least one of the tools. Browser tools share a prefix; MCP tools
 * (`mcp_<server>_<tool>`) form upstream's `mcp-<server>` toolsets (exact unless the server's name has an underscore).
 */
export function toolsetsOf(toolNames: Iterable<string>): Set<string> {
  const present = new Set(toolNames);
  const toolsets = new Set<string>();
  for (const [toolset, tools] of Object.entries(TOOLSETS)) if (tools.some((t) => present.has(t))) toolsets.add(toolset);
  for (const name of present) {
    if (name.startsWith("browser_")) toolsets.add("browser");
    else if (name.startsWith("mcp_")) toolsets.add(`mcp-${name.slice(4).split("_")[0]}`);
  }
  return toolsets;
}

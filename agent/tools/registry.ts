import type { UntrustedOutputKind } from "../security/tool-output-scan.js";
import { FILE_TOOLS } from "./file/index.js";
import { clarifyTool } from "./session/clarify-tool.js";
import { memoryTool } from "./session/memory-tool.js";
import { sessionSearchTool } from "./session/session-search-tool.js";
import { todoTool } from "./session/todo-tool.js";
import { skillViewTool } from "./skills/skill-view-tool.js";
import { skillsListTool } from "./skills/skills-list-tool.js";
import { processTool } from "./terminal/process-tool.js";
import { terminalTool } from "./terminal/terminal-tool.js";
import type { Tool } from "./tool.js";
import { webExtractTool } from "./web/web-extract-tool.js";
import { webSearchTool } from "./web/web-search-tool.js";

/**
 * The built-in tools whose output is someone else's text, scanned by the tool runner (agent/loop/untrusted-output.ts).
 * write_file and patch answer with our own words, web tools wrap their own output, MCP tools declare it themselves.
 */
const UNTRUSTED_OUTPUT: Readonly<Record<string, UntrustedOutputKind>> = {
  read_file: "file",
  search_files: "file",
  terminal: "command",
  process: "command",
};

function declared(tool: Tool): Tool {
  const kind = UNTRUSTED_OUTPUT[tool.name];
  return kind && !tool.untrustedOutput ? { ...tool, untrustedOutput: kind } : tool;
}

/** The tools every session offers, with the Python original's names and parameters. */
export const SESSION_TOOLS: readonly Tool[] = [
  ...FILE_TOOLS,
  terminalTool,
  processTool,
  todoTool,
  memoryTool,
  sessionSearchTool,
  webSearchTool,
  webExtractTool,
  skillsListTool,
  skillViewTool,
  clarifyTool,
].map(declared);

export const SESSION_TOOL_NAMES: ReadonlySet<string> = new Set(SESSION_TOOLS.map((t) => t.name));

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

/** The tools every session offers, with the Python original's names and parameters. */
export const SESSION_TOOLS: readonly Tool[] = [...FILE_TOOLS, terminalTool, processTool, todoTool, memoryTool, sessionSearchTool, webSearchTool, webExtractTool, skillsListTool, skillViewTool, clarifyTool];

export const SESSION_TOOL_NAMES: ReadonlySet<string> = new Set(SESSION_TOOLS.map((t) => t.name));

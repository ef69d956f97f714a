import { type PathArguments, USUAL_PATH_ARGUMENTS } from "../context/hint-candidates.js";
import { BROWSER_TOOLS } from "./browser/index.js";
import { executeCodeTool } from "./code/execute-code-tool.js";
import { FILE_TOOLS } from "./file/index.js";
import { clarifyTool } from "./session/clarify-tool.js";
import { memoryTool } from "./session/memory-tool.js";
import { sessionSearchTool } from "./session/session-search-tool.js";
import { todoTool } from "./session/todo-tool.js";
import { skillManageTool } from "./skills/skill-manage-tool.js";
import { skillViewTool } from "./skills/skill-view-tool.js";
import { skillsListTool } from "./skills/skills-list-tool.js";
import { processTool } from "./terminal/process-tool.js";
import { terminalTool } from "./terminal/terminal-tool.js";
import type { Tool } from "./tool.js";
import { visionAnalyzeTool } from "./vision/vision-analyze-tool.js";
import { webExtractTool } from "./web/web-extract-tool.js";
import { webSearchTool } from "./web/web-search-tool.js";

/**
 * The tools every session offers, with the Python original's names and parameters, in the order the model sees
 * them. Each is a definition (agent/tools/define-tool.ts) carrying its toolsets, kind, ACP description and flags;
 * everything else (toolsets, subagents' tools, hints, front ends' titles) is derived from these.
 *
 * Built on first use, not at load: an eager list is read the moment the registry loads, and when a module a tool
 * imports reaches the registry (skills/ once did, for toolsets) that is before the tool's own module has finished.
 */
const definitions = () =>
  [
    ...FILE_TOOLS,
    terminalTool,
    processTool,
    executeCodeTool,
    todoTool,
    memoryTool,
    sessionSearchTool,
    webSearchTool,
    webExtractTool,
    visionAnalyzeTool,
    ...BROWSER_TOOLS,
    skillsListTool,
    skillViewTool,
    skillManageTool,
    clarifyTool,
  ] as const;

type Definitions = ReturnType<typeof definitions>;

/** The built-in tools' names: a table keyed by `Record<BuiltInToolName, …>` fails to compile when one is missing. */
export type BuiltInToolName = Definitions[number]["name"];

let built: { readonly tools: Definitions; readonly byName: ReadonlyMap<string, Tool> } | undefined;

function registry() {
  if (!built) {
    const tools = definitions();
    built = { tools, byName: new Map(tools.map((t) => [t.name, t])) };
  }
  return built;
}

/** The built-in tools, in the order the model sees them. */
export function sessionTools(): Definitions {
  return registry().tools;
}

/** The built-in tool of that name, if there is one (MCP tools and delegate_task are made per session). */
export function builtInTool(name: string): Tool | undefined {
  return registry().byName.get(name);
}

const NO_PATHS: PathArguments = { paths: [] };

/** The arguments of a call that the subdirectory hints read as paths: a built-in tool's own, else the usual three. */
export function pathArgumentsOf(name: string): PathArguments {
  const tool = builtInTool(name);
  return tool ? (tool.pathArguments ?? NO_PATHS) : USUAL_PATH_ARGUMENTS;
}

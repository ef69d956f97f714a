import { createDelegateTool } from "../delegation/delegate-tool.js";
import { plainDescription } from "../tools/describe-call.js";
import { type BuiltInToolName, builtInTool } from "../tools/registry.js";
import type { DescribedArgs, Tool, ToolCallDescription, ToolKind, ToolResult } from "../tools/tool.js";

/**
 * delegate_task as the catalog knows it: its description and schema depend on the session's settings, how a call
 * reads does not, so any settings do here.
 */
const DELEGATE_TOOL = createDelegateTool({ maxConcurrentChildren: 1, toolsets: [] });

/** Every tool name the engine defines; a table keyed by `Record<ToolName, …>` fails to compile when one is missing. */
export type ToolName = BuiltInToolName | typeof DELEGATE_TOOL.name;

/** A call as a front end shows it: the definition's description plus its kind (MCP and unknown tools: "other"). */
export interface ToolCallView extends ToolCallDescription {
  readonly kind: ToolKind;
}

/** The definition behind a name: built-in, delegate_task, or none (MCP tools, a name from an old history). */
function definitionOf(name: string): Tool | undefined {
  return name === DELEGATE_TOOL.name ? DELEGATE_TOOL : builtInTool(name);
}

/**
 * How a call reads in a front end, asked of the tool's own definition; the name is all a stored history keeps. MCP
 * tools' descriptions are the same for every server (their name, and the file a `path` argument names).
 */
export function describeToolCall(name: string, args: DescribedArgs, cwd: string): ToolCallView {
  const tool = definitionOf(name);
  const description = tool ? tool.describe(args, cwd) : plainDescription(name, args, cwd);
  return { ...description, kind: tool?.kind ?? "other" };
}

/** The finished call as the user reads it, when its definition says so (delegate_task's results); else undefined. */
export function describeToolResult(name: string, result: ToolResult): string | undefined {
  return definitionOf(name)?.describeResult?.(result);
}

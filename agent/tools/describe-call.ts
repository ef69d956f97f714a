import { isAbsolute, resolve } from "node:path";
import { displayPath } from "../workspace/resolve-path.js";
import type { DescribedArgs, FileLocation, ToolCallDescription } from "./tool.js";

/** Upstream's ACP titles cut long text to `max` characters, the last three being `...`. */
export const shorten = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

/** A string argument, or "" when absent or of another type (descriptions never fail on a malformed call). */
export const str = (value: unknown): string => (typeof value === "string" ? value : "");

const absolute = (path: string, cwd: string): string => (isAbsolute(path) ? path : resolve(cwd, path));

/** The `path` argument as the user reads it (relative to the project when inside), or "". */
export function shownPath(args: DescribedArgs, cwd: string): string {
  const path = str(args?.path);
  return path ? displayPath(absolute(path, cwd), cwd) : "";
}

/** The file a call's `path` argument names, at its `offset` line when one is given. */
export function pathLocations(args: DescribedArgs, cwd: string): FileLocation[] {
  const path = str(args?.path);
  if (!path) return [];
  return [{ path: absolute(path, cwd), ...(typeof args?.offset === "number" ? { line: args.offset } : {}) }];
}

/** How a call with no title of its own reads (MCP tools, session_search): its name, and the file it names if any. */
export function plainDescription(name: string, args: DescribedArgs, cwd: string): ToolCallDescription {
  return { title: name || "Unknown tool", locations: pathLocations(args, cwd) };
}

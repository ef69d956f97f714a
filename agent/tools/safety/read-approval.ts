import { dirname } from "node:path";
import type { Env } from "../../config/hermes-home.js";
import type { ToolContext } from "../tool.js";
import { pathScope } from "./path-scope.js";
import { isSameOrUnder } from "./real-path.js";
import { isAllowlistedRead } from "./read-allowlist.js";

export interface ReadScopeOptions {
  readonly userHome: string;
  readonly env: Env;
  /** The tool that reads, named in the question. */
  readonly tool: string;
  /** A search reads the whole folder tree at `path`; read_file reads one file. */
  readonly recursive: boolean;
}

// Session answers live in the session's approval set (shared with subagents), under keys no command pattern uses.
const FOLDER_KEY = "read-folder:";
const TREE_KEY = "read-tree:";

/**
 * Reads outside the workspace ask (item 5 of issue 17): once per folder, "allow once" or "for this session",
 * except the documented allowlist (read-allowlist.ts) and in YOLO mode. Returns undefined when the read may go on,
 * else the message for the model. `path` is absolute; it is judged resolved, so a link inside the workspace that
 * points out of it asks as its target would. Call it after the read-deny rules, which no answer overrides.
 */
export async function approveRead(ctx: ToolContext, path: string, options: ReadScopeOptions): Promise<string | undefined> {
  const scope = pathScope(path, ctx.workspace.root);
  if (scope.inWorkspace || ctx.state.mode === "yolo") return undefined;
  if (isAllowlistedRead(scope.resolved, { hermesHome: ctx.home, userHome: options.userHome, env: options.env })) return undefined;
  const folder = options.recursive ? scope.resolved : dirname(scope.resolved);
  const approved = ctx.state.approvedForSession;
  if (!options.recursive && approved.has(FOLDER_KEY + folder)) return undefined;
  for (const key of approved) if (key.startsWith(TREE_KEY) && isSameOrUnder(folder, key.slice(TREE_KEY.length))) return undefined;
  const where = `${scope.resolved} is outside the workspace`;
  if (!ctx.approver.canAsk) return `Read not allowed: ${where}, and no one can approve reads in this front end. It was not read.`;
  const answer = await ctx.approver.approveRead(
    { toolCallId: ctx.toolCallId, tool: options.tool, path: scope.resolved, folder, recursive: options.recursive },
    ctx.signal,
  );
  if (answer === "session") approved.add((options.recursive ? TREE_KEY : FOLDER_KEY) + folder);
  if (answer === "once" || answer === "session") return undefined;
  return `Read denied by the user: ${where}; it was not read. Do not retry it or read it another way; ask the user if you need it.`;
}

import { dirname } from "node:path";
import type { Env } from "../../config/hermes-home.js";
import { isSameOrUnder } from "../../security/real-path.js";
import type { ReadApproval, ReadApprovalRequest } from "../approver.js";
import type { ToolContext } from "../tool.js";
import { pathScope } from "./path-scope.js";
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
// Questions waiting for an answer, per session (keyed by its approval set) and folder: parallel reads of one folder
// (a model reading four files at once) wait for the first question instead of each asking the same thing.
const pending = new WeakMap<Set<string>, Map<string, Promise<ReadApproval>>>();

/**
 * Reads outside the workspace ask (item 5 of issue 17): once per folder, "allow once" or "for this session",
 * except the documented allowlist (read-allowlist.ts) and in YOLO mode. Returns undefined when the read may go on,
 * else the message for the model. `path` is absolute; it is judged resolved, so a link inside the workspace that
 * points out of it asks as its target would. Call it after the read-deny rules, which no answer overrides.
 */
export async function approveRead(
  ctx: ToolContext,
  path: string,
  options: ReadScopeOptions,
): Promise<string | undefined> {
  const scope = pathScope(path, ctx.workspace.root);
  if (scope.inWorkspace || ctx.state.mode === "yolo") return undefined;
  if (isAllowlistedRead(scope.resolved, { hermesHome: ctx.home, userHome: options.userHome, env: options.env }))
    return undefined;
  const folder = options.recursive ? scope.resolved : dirname(scope.resolved);
  const approved = ctx.state.approvedForSession;
  if (!options.recursive && approved.has(FOLDER_KEY + folder)) return undefined;
  for (const key of approved)
    if (key.startsWith(TREE_KEY) && isSameOrUnder(folder, key.slice(TREE_KEY.length))) return undefined;
  const where = `${scope.resolved} is outside the workspace`;
  if (!ctx.approver.canAsk)
    return `Read not allowed: ${where}, and no one can approve reads in this front end. It was not read.`;
  const key = (options.recursive ? TREE_KEY : FOLDER_KEY) + folder;
  const waiting = pending.get(approved)?.get(key);
  // Another call's "once" was for that call only: this one still asks.
  const shared = waiting && (await waiting) !== "once" ? await waiting : undefined;
  const answer =
    shared ??
    (await ask(ctx, approved, key, {
      toolCallId: ctx.toolCallId,
      tool: options.tool,
      path: scope.resolved,
      folder,
      recursive: options.recursive,
    }));
  if (answer === "session") approved.add(key);
  if (answer === "once" || answer === "session") return undefined;
  return `Read denied by the user: ${where}; it was not read. Do not retry it or read it another way; ask the user if you need it.`;
}

/** Asks, with the question registered as pending for its folder until answered. */
async function ask(
  ctx: ToolContext,
  approved: Set<string>,
  key: string,
  request: ReadApprovalRequest,
): Promise<ReadApproval> {
  let questions = pending.get(approved);
  if (!questions) pending.set(approved, (questions = new Map()));
  const question = ctx.approver.approveRead(request, ctx.signal).catch((): ReadApproval => "deny");
  questions.set(key, question);
  try {
    return await question;
  } finally {
    if (questions.get(key) === question) questions.delete(key);
  }
}

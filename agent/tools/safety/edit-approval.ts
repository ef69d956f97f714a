import { basename } from "node:path";
import type { FileEdit, ToolContext } from "../tool.js";
import { pathScope } from "./path-scope.js";

const SENSITIVE_NAMES = new Set([".env", ".env.local", ".env.production", "id_rsa", "id_ed25519"]);

/**
 * Decides whether edits may be written, by the session's mode (hermes-behaviour.md §8.3, extended with our modes).
 * Returns undefined when they may, else the message for the model. A question nobody answers is a denial, never
 * an "allow". Paths are judged resolved (symlinks, `..`, case): a link in the workspace is no way out of it.
 */
export async function approveEdits(ctx: ToolContext, edits: readonly FileEdit[]): Promise<string | undefined> {
  const mode = ctx.state.mode;
  if (mode === "read_only") {
    return "Edits are not allowed: the user put this session in read-only mode. Describe the change instead (or show it as a patch in your reply); the user can switch modes to let you apply it.";
  }
  if (mode === "yolo") return undefined;
  const reasons = edits.map((e) => unroutineReason(e, ctx.workspace.root)).filter((r): r is string => r !== undefined);
  // Accept-edits covers writes only: a deletion cannot be reviewed as a diff in an editor (ACP has no fs delete), so
  // it is always asked about. Editors that review writes run in this mode and would otherwise never see it.
  if (mode === "accept_edits" && reasons.length === 0) return undefined;
  if (!ctx.approver.canAsk) {
    const why = reasons.length > 0 ? ` (${reasons.join("; ")})` : "";
    return `Edit approval is needed${why}, but no one can approve edits in this front end; the file was not modified.`;
  }
  const reason = reasons.length > 0 ? reasons.join("; ") : undefined;
  const allowed = await ctx.approver.approveEdit(
    { toolCallId: ctx.toolCallId, edits, ...(reason ? { reason } : {}) },
    ctx.signal,
  );
  return allowed
    ? undefined
    : "Edit approval denied by the user; the file was not modified. Do not retry the same edit; ask the user what they want instead.";
}

/**
 * Why an edit is not routine, or undefined when accept-edits may write it without asking: inside the workspace,
 * not a secret or repository internals (`.git/config` and hooks run programs), not a deletion. Unlike upstream's
 * workspace_session the temp folder is not routine: it is outside the workspace, shared, and a place to plant files.
 */
function unroutineReason(edit: FileEdit, root: string): string | undefined {
  const scope = pathScope(edit.path, root);
  const shown = scope.resolved === edit.path ? edit.path : `${edit.path} (really ${scope.resolved})`;
  if (edit.newText === null) return `deletes ${shown}`;
  if (scope.inGitDir) return `inside .git: ${shown}`;
  const parts = scope.resolved.split(/[\\/]/);
  if (parts.includes(".ssh") || SENSITIVE_NAMES.has(basename(scope.resolved))) return `sensitive file: ${shown}`;
  if (!scope.inWorkspace) return `outside the workspace: ${shown}`;
  return undefined;
}

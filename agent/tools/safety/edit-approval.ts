import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, relative, sep } from "node:path";
import type { FileEdit, ToolContext } from "../tool.js";

const SENSITIVE_NAMES = new Set([".env", ".env.local", ".env.production", "id_rsa", "id_ed25519"]);

/**
 * Decides whether edits may be written, by the session's mode (hermes-behaviour.md §8.3, extended with our modes).
 * Returns undefined when they may, else the message for the model. A question nobody answers is a denial, never
 * an "allow".
 */
export async function approveEdits(ctx: ToolContext, edits: readonly FileEdit[]): Promise<string | undefined> {
  const mode = ctx.state.mode;
  if (mode === "read_only") {
    return "Edits are not allowed: the user put this session in read-only mode. Describe the change instead (or show it as a patch in your reply); the user can switch modes to let you apply it.";
  }
  if (mode === "yolo") return undefined;
  // Accept-edits covers writes only: a deletion cannot be reviewed as a diff in an editor (ACP has no fs delete), so
  // it is always asked about. Editors that review writes run in this mode and would otherwise never see it.
  if (mode === "accept_edits" && edits.every((e) => e.newText !== null && isRoutineEdit(e.path, ctx.workspace.root))) return undefined;
  if (!ctx.approver.canAsk) return "Edit approval is needed, but no one can approve edits in this front end; the file was not modified.";
  const allowed = await ctx.approver.approveEdit({ toolCallId: ctx.toolCallId, edits }, ctx.signal);
  return allowed ? undefined : "Edit approval denied by the user; the file was not modified. Do not retry the same edit; ask the user what they want instead.";
}

/** Inside the workspace or the temp folder, and not a secret or repository internals (upstream's workspace_session). */
function isRoutineEdit(path: string, root: string): boolean {
  const parts = path.split(sep);
  if (parts.includes(".git") || parts.includes(".ssh") || SENSITIVE_NAMES.has(basename(path))) return false;
  return [root, realTmp()].some((base) => {
    const rel = relative(base, path);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  });
}

function realTmp(): string {
  try {
    return realpathSync(tmpdir());
  } catch {
    return tmpdir();
  }
}

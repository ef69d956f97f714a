/**
 * Bringing files back from a checkpoint. Upstream runs `git checkout <id> -- .`, which reverts edits and brings
 * deleted files back but leaves files created since in place; here a restore is exact: the changes between the
 * checkpoint and the current state (as just snapshotted) are computed, files created since are removed, and only
 * the changed paths are checked out. Only paths git lists are touched, so excluded folders (node_modules, .git…)
 * never are; a removal never follows a symlink (every parent must be a real directory inside the workspace), and
 * git's checkout replaces a symlinked parent with a real directory rather than writing through it.
 */
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { type GitContext, runGit, splitNul } from "./git.js";
import { EXCLUDED_DIR_NAMES } from "./layout.js";

/** What happened to a file since the checkpoint; restoring undoes it (removes, reverts, or brings back). */
export type ChangeKind = "added" | "modified" | "deleted";

export interface FileChange {
  /** Workspace-relative, forward slashes. */
  path: string;
  change: ChangeKind;
}

/** Changes from tree-ish `from` (the checkpoint) to tree-ish `to` (now), optionally limited to literal `paths`. */
export async function treeChanges(
  ctx: GitContext,
  from: string,
  to: string,
  paths?: readonly string[],
): Promise<FileChange[]> {
  const args = ["--literal-pathspecs", "diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to];
  if (paths && paths.length > 0) args.push("--", ...paths);
  const parts = splitNul((await runGit(ctx, args)).stdout);
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = (parts[i] as string)[0];
    const path = parts[i + 1] as string;
    const change: ChangeKind = status === "A" ? "added" : status === "D" ? "deleted" : "modified";
    changes.push({ path, change });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function isRealDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && !st.isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Removes workspace file `gitPath` if every folder on the way is a real directory inside `root` and none is
 * excluded. A symlink is removed as a link, never followed. Returns whether something was removed.
 */
export function removeInside(root: string, gitPath: string): boolean {
  const parts = gitPath.split("/");
  if (parts.some((part) => part === "" || part === "." || part === ".." || EXCLUDED_DIR_NAMES.has(part))) return false;
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    if (!isRealDir(dir)) return false;
  }
  const target = join(dir, parts[parts.length - 1] as string);
  try {
    // A directory here is a nested repository git recorded as a gitlink: not ours to delete.
    if (isRealDir(target)) return false;
    unlinkSync(target);
    return true;
  } catch {
    return false;
  }
}

/** Folders left empty by removals, deepest first, unless the checkpoint has files below them. */
export function removeEmptyParents(root: string, removed: readonly string[], keptDirs: ReadonlySet<string>): void {
  const candidates = new Set<string>();
  for (const path of removed) {
    const parts = path.split("/");
    for (let i = parts.length - 1; i > 0; i--) candidates.add(parts.slice(0, i).join("/"));
  }
  const deepestFirst = [...candidates].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of deepestFirst) {
    if (keptDirs.has(dir)) continue;
    const absolute = join(root, ...dir.split("/"));
    try {
      if (isRealDir(absolute) && readdirSync(absolute).length === 0) rmdirSync(absolute);
    } catch {
      // Not empty after all, or gone: either way nothing to do.
    }
  }
}

/** Every folder that holds a file in `commit` (so a restore keeps it even when it is empty now). */
export async function foldersIn(ctx: GitContext, commit: string): Promise<Set<string>> {
  const files = splitNul((await runGit(ctx, ["ls-tree", "-r", "-z", "--name-only", commit])).stdout);
  const dirs = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return dirs;
}

/** Writes `paths` as they are in `commit` into the work tree (and the project index). */
export async function checkoutPaths(ctx: GitContext, index: string, commit: string, paths: readonly string[]) {
  if (paths.length === 0) return;
  await runGit(ctx, ["--literal-pathspecs", "checkout", commit, "--pathspec-from-file=-", "--pathspec-file-nul"], {
    index,
    input: `${paths.join("\0")}\0`,
    timeoutMs: ctx.timeoutMs * 2,
  });
}

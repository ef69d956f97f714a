import { isSameOrUnder, realPath } from "../../security/real-path.js";

/**
 * Where a path really is, for the decisions that depend on it: symlinks and `..` resolved (realPath), and the
 * workspace root resolved the same way, so `homelink/.bashrc` (homelink -> ~) is judged as ~/.bashrc and
 * `gitlink/config` (gitlink -> .git) as .git/config.
 */
export interface PathScope {
  /** The resolved path. */
  readonly resolved: string;
  /** Inside the workspace root (the root itself included). */
  readonly inWorkspace: boolean;
  /** Inside a repository's internals (`.git/`, any case): hooks and config there run programs. */
  readonly inGitDir: boolean;
}

export function pathScope(path: string, root: string): PathScope {
  const resolved = realPath(path);
  return {
    resolved,
    inWorkspace: isSameOrUnder(resolved, realPath(root)),
    inGitDir: hasGitSegment(path) || hasGitSegment(resolved),
  };
}

// Case-insensitive on every system: on macOS `.GIT` is `.git`, and elsewhere asking about `.Git/` costs nothing.
function hasGitSegment(path: string): boolean {
  return path.split(/[\\/]/).some((part) => part.toLowerCase() === ".git");
}

/**
 * Where checkpoints live and what they leave out — upstream Hermes' `tools/checkpoint_manager.py` (v2 single-store
 * layout), reproduced name for name so the Python `/rollback` and this one read and write the same store:
 *
 *   HERMES_HOME/checkpoints/
 *     store/                      bare git repository shared by every working directory
 *       refs/hermes/<hash16>      one branch tip per working directory
 *       indexes/<hash16>          that directory's git index (kept between snapshots: the stat cache makes them fast)
 *       projects/<hash16>.json    {workdir, created_at, last_touch, workdir_parent_dev, workdir_parent_ino}
 *       info/exclude              DEFAULT_EXCLUDES below
 *     .last_prune                 upstream's maintenance marker (left alone here)
 *     legacy-<YYYYmmdd-HHMMSS>/   pre-v2 per-directory repositories, moved aside on first use
 *   HERMES_HOME/.checkpoints.lock flock(2) lock upstream takes around every operation
 *
 * <hash16> is sha256 of the directory's canonical absolute path (`~` expanded, symlinks resolved), first 16 hex digits.
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export const STORE_DIRNAME = "store";
export const REFS_PREFIX = "refs/hermes";
export const INDEXES_DIRNAME = "indexes";
export const PROJECTS_DIRNAME = "projects";
export const LEGACY_PREFIX = "legacy-";
export const PRUNE_MARKER_NAME = ".last_prune";
export const GC_PENDING_NAME = ".gc-pending";

/** Upstream's list, in upstream's order: info/exclude is byte-identical whichever Hermes created the store. */
export const DEFAULT_EXCLUDES: readonly string[] = [
  "node_modules/",
  "dist/",
  "build/",
  "target/",
  "out/",
  ".next/",
  ".nuxt/",
  "__pycache__/",
  "*.pyc",
  "*.pyo",
  ".cache/",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  "coverage/",
  ".coverage",
  ".venv/",
  "venv/",
  "env/",
  ".git/",
  ".hg/",
  ".svn/",
  ".worktrees/",
  "*.so",
  "*.dylib",
  "*.dll",
  "*.o",
  "*.a",
  "*.jar",
  "*.class",
  "*.exe",
  "*.obj",
  "*.mp4",
  "*.mov",
  "*.mkv",
  "*.webm",
  "*.zip",
  "*.tar",
  "*.tar.gz",
  "*.tgz",
  "*.7z",
  "*.rar",
  "*.iso",
  ".env",
  ".env.*",
  ".env.local",
  ".env.*.local",
  ".DS_Store",
  "Thumbs.db",
  "*.log",
];

/** Folder names excluded wherever they appear (the `name/` entries): restores and file counts never enter them. */
export const EXCLUDED_DIR_NAMES: ReadonlySet<string> = new Set(
  DEFAULT_EXCLUDES.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)),
);

/** Upstream's limits and defaults (CheckpointManager.__init__, _MAX_FILES). */
export const CHECKPOINT_DEFAULTS = {
  maxSnapshots: 20,
  maxTotalSizeMb: 500,
  maxFileSizeMb: 10,
  /** Directories with more files than this are not snapshotted at all. */
  maxFiles: 50_000,
} as const;

/** HERMES_CHECKPOINT_TIMEOUT seconds, clamped to 10..60 as upstream; `git add -A` and checkout get twice this. */
export function gitTimeoutMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const parsed = Number.parseInt(env.HERMES_CHECKPOINT_TIMEOUT ?? "", 10);
  const seconds = Number.isFinite(parsed) ? parsed : 30;
  return Math.max(10, Math.min(60, seconds)) * 1000;
}

/** Python's `Path(p).expanduser().resolve()`: absolute, symlinks resolved as far as the path exists. */
export function normalizePath(path: string): string {
  let expanded = path;
  if (path === "~") expanded = homedir();
  else if (path.startsWith("~/") || path.startsWith(`~${sep}`)) expanded = join(homedir(), path.slice(2));
  const absolute = resolve(expanded);
  // resolve(strict=False) resolves the longest existing prefix and keeps the rest as written.
  let head = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync.native(head);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return absolute;
      tail.push(basename(head));
      head = parent;
    }
  }
}

/** sha256(canonical absolute path)[:16] — the per-directory name upstream uses for refs, indexes and metadata. */
export function projectHash(workingDir: string): string {
  return createHash("sha256").update(normalizePath(workingDir), "utf8").digest("hex").slice(0, 16);
}

export interface StorePaths {
  base: string;
  store: string;
  ref: string;
  index: string;
  meta: string;
  lock: string;
}

export function storePaths(checkpointBase: string, hash: string): StorePaths {
  const store = join(checkpointBase, STORE_DIRNAME);
  return {
    base: checkpointBase,
    store,
    ref: `${REFS_PREFIX}/${hash}`,
    index: join(store, INDEXES_DIRNAME, hash),
    meta: join(store, PROJECTS_DIRNAME, `${hash}.json`),
    // Beside the base, not inside it, as upstream's store_lock_path: clearing the base cannot swap its inode.
    lock: join(dirname(checkpointBase), `.${basename(checkpointBase)}.lock`),
  };
}

const COMMIT_HASH = /^[0-9a-fA-F]{4,64}$/;

/** Upstream's _validate_commit_hash: a value starting with '-' would be read by git as an option. */
export function commitHashError(id: string): string | undefined {
  if (!id?.trim()) return "Empty commit hash";
  if (id.startsWith("-")) return `Invalid commit hash (must not start with '-'): '${id}'`;
  if (!COMMIT_HASH.test(id)) return `Invalid commit hash (expected 4-64 hex characters): '${id}'`;
  return undefined;
}

/** Upstream's _validate_file_path, plus: nothing inside an excluded folder (no checkpoint holds it). */
export function filePathError(path: string, workingDir: string): string | undefined {
  if (!path?.trim()) return "Empty file path";
  if (isAbsolute(path)) return `File path must be relative, got absolute path: '${path}'`;
  const rel = relative(workingDir, resolve(workingDir, path));
  // Resolved as upstream resolves it (symlinks followed): a link to a folder outside is an escape too.
  const real = relative(workingDir, normalizePath(resolve(workingDir, path)));
  const outside = (r: string) => r === "" || r === ".." || r.startsWith(`..${sep}`) || isAbsolute(r);
  if (outside(rel) || outside(real)) return `File path escapes the working directory via traversal: '${path}'`;
  if (rel.split(sep).some((part) => EXCLUDED_DIR_NAMES.has(part))) {
    return `File path is inside an excluded folder, which checkpoints never hold: '${path}'`;
  }
  return undefined;
}

/** The workspace-relative form git uses (forward slashes). */
export function toGitPath(path: string, workingDir: string): string {
  return relative(workingDir, resolve(workingDir, path)).split(sep).join("/");
}

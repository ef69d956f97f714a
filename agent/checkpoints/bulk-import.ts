/**
 * The first snapshot of a project stores every file. `git add -A` writes each as a loose object (a file, a rename
 * and a directory entry apiece: 16 s for 10,000 small files on a sandboxed VM). Here the files `git add -A` would
 * stage are read once and written into a single pack (pack-writer.ts); the `git add -A` that follows finds every
 * blob already stored and only hashes and indexes. Same objects, same tree, far fewer system calls. Anything
 * skipped here (nested repositories, special files, big files, a SHA-256 store) is simply left to git.
 */
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { type GitContext, runGit, splitNul } from "./git.js";
import { writeBlobPack } from "./pack-writer.js";

/** Files above this are left to `git add` (which streams them) rather than read into memory here. */
const FILE_LIMIT = 8 * 1024 * 1024;
/** At most this much file content is held in memory for one pack; the rest is left to `git add`. */
const TOTAL_LIMIT = 256 * 1024 * 1024;
/** Below this many files the loose objects cost less than reading everything twice. */
const MIN_FILES = 200;

/** Untracked, not ignored files under the work tree: exactly what `git add -A` on an empty index would stage. */
async function untrackedFiles(ctx: GitContext, index: string): Promise<string[]> {
  const listed = await runGit(ctx, ["ls-files", "-z", "--others", "--exclude-standard"], { index });
  // A nested repository is listed as "dir/": git records it as a gitlink, not as files.
  return splitNul(listed.stdout).filter((path) => !path.endsWith("/"));
}

function contentOf(workTree: string, path: string, maxBytes: number): Buffer | undefined {
  const absolute = join(workTree, ...path.split("/"));
  try {
    const st = lstatSync(absolute);
    if (st.isSymbolicLink()) return readlinkSync(absolute, { encoding: "buffer" });
    if (!st.isFile() || st.size > maxBytes) return undefined;
    return readFileSync(absolute);
  } catch {
    return undefined;
  }
}

function* contents(workTree: string, paths: readonly string[], maxBytes: number): Generator<Buffer> {
  let total = 0;
  for (const path of paths) {
    const content = contentOf(workTree, path, maxBytes);
    if (!content) continue;
    total += content.length;
    if (total > TOTAL_LIMIT) return;
    yield content;
  }
}

/**
 * Stores the work tree's files as blobs in one pack before a first `git add -A`. Best effort: on any failure git
 * stores whatever is missing. `capBytes` is the snapshot size cap (bigger files are never stored; 0 = none).
 */
export async function importBlobs(ctx: GitContext, index: string, capBytes: number, sha256Store: boolean) {
  if (sha256Store) return;
  try {
    const paths = await untrackedFiles(ctx, index);
    if (paths.length < MIN_FILES) return;
    const maxBytes = capBytes > 0 ? Math.min(capBytes, FILE_LIMIT) : FILE_LIMIT;
    writeBlobPack(ctx.store, contents(ctx.workTree, paths, maxBytes));
  } catch {
    // git add -A writes loose objects instead.
  }
}

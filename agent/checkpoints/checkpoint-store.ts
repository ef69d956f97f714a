/**
 * Checkpoints of one working directory: snapshot before the turn changes anything, list, diff, restore — upstream
 * Hermes' CheckpointManager (tools/checkpoint_manager.py) for a single directory, on upstream's shared shadow store,
 * so a Python Hermes on the same HERMES_HOME lists and restores these snapshots and this lists and restores its.
 *
 * Fast by keeping the project's index between snapshots: `git add -A` then re-hashes only files whose stat data
 * changed, and a snapshot that finds the same tree as the last one writes nothing (no commit, no objects).
 * Upstream resets the index from the ref before each take, which forces a full re-hash; a Python take on the same
 * store still works here (the index is just slower once).
 */
import { existsSync, lstatSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { resolveHermesHome } from "../config/hermes-home.js";
import { importBlobs } from "./bulk-import.js";
import { CheckpointError, type GitContext, gitText, runGit, splitNul } from "./git.js";
import { type CheckpointEntry, commitMessage, fileAt, listEntries, refTip, resolveCheckpoint } from "./history.js";
import {
  appendSnapshot,
  ChainCache,
  dropOneRoundIfOver,
  isSha256Store,
  reclaimSpace,
  trimHistory,
} from "./history-rewrite.js";
import {
  CHECKPOINT_DEFAULTS,
  filePathError,
  gitTimeoutMs,
  normalizePath,
  projectHash,
  type StorePaths,
  storePaths,
  toGitPath,
} from "./layout.js";
import { checkoutPaths, type FileChange, foldersIn, removeEmptyParents, removeInside, treeChanges } from "./restore.js";
import { withStoreLock } from "./store-lock.js";
import { commitBody, oversizeInIndex, readLooseObject, readRef, refMayExist, treeOf } from "./store-objects.js";
import { countFiles, indexChecksum, indexEntryCount, initStore, touchProject } from "./store-setup.js";

export interface CheckpointStoreOptions {
  workingDir: string;
  /** HERMES_HOME; from the environment (HERMES_HOME or ~/.hermes) when omitted. */
  hermesHome?: string;
  /** `checkpoints.max_snapshots` (upstream default 20, at least 1). */
  maxSnapshots?: number;
  /** `checkpoints.max_total_size_mb`: oldest snapshots of every project are dropped above it (0 = no cap). */
  maxTotalSizeMb?: number;
  /** `checkpoints.max_file_size_mb`: larger files are left out of snapshots (0 = no cap). */
  maxFileSizeMb?: number;
  /** Directories with more files than this are not snapshotted (upstream's 50,000). */
  maxFiles?: number;
}

export interface SnapshotMeta {
  /** The commit subject upstream shows in `/rollback`, e.g. "before write_file" (upstream's `reason`). */
  reason?: string;
  turn?: number;
  sessionId?: string;
}

export type SnapshotResult =
  | { created: true; id: string }
  /** `id` is the latest checkpoint when one exists: with nothing changed it already describes the workspace. */
  | { created: false; id?: string; skipped: "unchanged" | "empty" | "too_broad" | "too_many_files" };

export interface CheckpointDiff {
  id: string;
  /** What happened since the checkpoint; restoring undoes each (added → removed, deleted → back, modified → reverted). */
  changes: FileChange[];
  /** `git diff --stat` from the checkpoint to now, as upstream's `/rollback diff`. */
  stat: string;
  /** Unified diff from the checkpoint to now. */
  patch: string;
}

export interface RestoreResult {
  /** The checkpoint restored. */
  id: string;
  reason: string;
  /** Every file the restore changed (removed, reverted or brought back), workspace-relative. */
  files: string[];
  changes: FileChange[];
  /** The snapshot of the state just before restoring (upstream's "pre-rollback snapshot"), to undo the undo. */
  preRollbackId?: string;
}

/** How many snapshots between two measurements of the store's size (upstream measures every one). */
const SIZE_CHECK_EVERY = 10;

export class CheckpointStore {
  readonly workingDir: string;
  readonly hash: string;
  readonly paths: StorePaths;
  private readonly ctx: GitContext;
  private readonly maxSnapshots: number;
  private readonly maxTotalBytes: number;
  private readonly maxFileBytes: number;
  private readonly maxFiles: number;
  private ready: Promise<void> | undefined;
  /** This ref's history as last seen, so steady-state snapshots need no rev-list or cat-file. */
  private readonly chain = new ChainCache();
  /** The index's checksum when it was last written as exactly `tree`: an unchanged index needs no write-tree. */
  private staged: { checksum: string; tree: string } | undefined;
  /** Snapshots since the store size was last measured (measured on the first, then every SIZE_CHECK_EVERY). */
  private sinceSizeCheck = Number.POSITIVE_INFINITY;

  constructor(options: CheckpointStoreOptions) {
    this.workingDir = normalizePath(options.workingDir);
    this.hash = projectHash(this.workingDir);
    const base = join(options.hermesHome ?? resolveHermesHome(process.env), "checkpoints");
    this.paths = storePaths(base, this.hash);
    this.maxSnapshots = Math.max(1, Math.trunc(options.maxSnapshots ?? CHECKPOINT_DEFAULTS.maxSnapshots));
    this.maxTotalBytes = Math.max(0, options.maxTotalSizeMb ?? CHECKPOINT_DEFAULTS.maxTotalSizeMb) * 1024 * 1024;
    this.maxFileBytes = Math.max(0, options.maxFileSizeMb ?? CHECKPOINT_DEFAULTS.maxFileSizeMb) * 1024 * 1024;
    this.maxFiles = options.maxFiles ?? CHECKPOINT_DEFAULTS.maxFiles;
    this.ctx = { store: this.paths.store, workTree: this.workingDir, home: base, timeoutMs: gitTimeoutMs() };
  }

  /** Whether git can be run at all; false means every operation would throw GitMissingError. */
  static async gitAvailable(): Promise<boolean> {
    try {
      const ctx: GitContext = { store: homedir(), workTree: homedir(), home: homedir(), timeoutMs: 10_000 };
      await runGit(ctx, ["--version"]);
      return true;
    } catch {
      return false;
    }
  }

  /** Upstream never snapshots the filesystem root or the home directory. */
  get tooBroad(): boolean {
    return this.workingDir === dirname(this.workingDir) || this.workingDir === normalizePath(homedir());
  }

  /** Snapshots the workspace (once per turn, before its first change). Nothing changed → no commit. */
  async snapshot(meta: SnapshotMeta = {}): Promise<SnapshotResult> {
    if (this.tooBroad) return { created: false, skipped: "too_broad" };
    await this.ensureReady();
    return withStoreLock(this.paths.lock, async () => {
      const taken = await this.take(commitMessage(meta.reason ?? "auto", meta.turn, meta.sessionId), true);
      return taken.result;
    });
  }

  /** Checkpoints, newest first, numbered from 1 (upstream's `/rollback` numbering). Survive restarts: they are git. */
  async list(): Promise<CheckpointEntry[]> {
    if (!existsSync(join(this.paths.store, "HEAD"))) return [];
    return listEntries(this.ctx, this.paths.ref, this.maxSnapshots);
  }

  /** The full id of checkpoint `idOrNumber` (an id or prefix, or a `/rollback` number). */
  async resolve(idOrNumber: string | number): Promise<string> {
    if (!existsSync(join(this.paths.store, "HEAD")))
      throw new CheckpointError("No checkpoints exist for this directory");
    if (typeof idOrNumber === "number") {
      const entry = (await this.list()).find((e) => e.number === idOrNumber);
      if (!entry) throw new CheckpointError(`No checkpoint number ${idOrNumber}`);
      return entry.id;
    }
    return resolveCheckpoint(this.ctx, this.paths.ref, idOrNumber);
  }

  /** What restoring checkpoint `id` would change, and the unified diff from it to now. Changes no file. */
  async diff(id: string | number): Promise<CheckpointDiff> {
    await this.ensureReady();
    return withStoreLock(this.paths.lock, async () => {
      const commit = await this.resolve(id);
      const tree = await this.stageWorkspace((await this.tip())?.tree);
      const changes = await treeChanges(this.ctx, commit, tree);
      const base = ["diff", "--no-color", "--no-ext-diff", "--no-textconv"];
      const stat = await gitText(this.ctx, [...base, "--stat", commit, tree, "--"]);
      const patch = await gitText(this.ctx, [...base, commit, tree, "--"]);
      return { id: commit, changes, stat, patch };
    });
  }

  /** A file's content in checkpoint `id` (undefined if it did not exist there): for previews and diff views. */
  async fileAt(id: string | number, path: string): Promise<Buffer | undefined> {
    const invalid = filePathError(path, this.workingDir);
    if (invalid) throw new CheckpointError(invalid);
    return fileAt(this.ctx, await this.resolve(id), toGitPath(path, this.workingDir));
  }

  /**
   * Restores the workspace (or only `paths`) to checkpoint `id`: files created since are removed, deleted ones come
   * back, edits are undone. A snapshot of the current state is taken first, so the restore itself can be undone.
   */
  async restore(id: string | number, options: { paths?: readonly string[] } = {}): Promise<RestoreResult> {
    for (const path of options.paths ?? []) {
      const invalid = filePathError(path, this.workingDir);
      if (invalid) throw new CheckpointError(invalid);
    }
    await this.ensureReady();
    return withStoreLock(this.paths.lock, async () => {
      const commit = await this.resolve(id);
      const pre = await this.take(commitMessage(`pre-rollback snapshot (restoring to ${commit.slice(0, 8)})`), false);
      if (!pre.tree)
        throw new CheckpointError(`Restore refused: more than ${this.maxFiles} files in ${this.workingDir}`);
      const gitPaths = options.paths?.map((p) => toGitPath(p, this.workingDir));
      const changes = await treeChanges(this.ctx, commit, pre.tree, gitPaths);
      const removed = changes.filter((c) => c.change === "added").map((c) => c.path);
      const actuallyRemoved = removed.filter((path) => removeInside(this.workingDir, path));
      if (actuallyRemoved.length > 0) {
        removeEmptyParents(this.workingDir, actuallyRemoved, await foldersIn(this.ctx, commit));
      }
      const restored = changes.filter((c) => c.change !== "added").map((c) => c.path);
      await checkoutPaths(this.ctx, this.paths.index, commit, restored);
      const reason = await gitText(this.ctx, ["log", "-1", "--format=%s", commit, "--"]);
      // The selected tree was needed until the checkout finished; only now may the count budget drop it.
      await this.prune();
      const files = [...actuallyRemoved, ...restored].sort();
      const kept = new Set(files);
      return {
        id: commit,
        reason,
        files,
        changes: changes.filter((c) => kept.has(c.path)),
        ...(pre.result.created ? { preRollbackId: (await this.tip())?.commit } : {}),
      };
    });
  }

  /** Upstream's maintenance gc for what trimming dropped (slow on big stores: call it at startup, not per turn). */
  async reclaim(): Promise<void> {
    await this.ensureReady();
    await withStoreLock(this.paths.lock, () => reclaimSpace({ ...this.ctx, workTree: this.paths.base }));
  }

  private ensureReady(): Promise<void> {
    this.ready ??= initStore({ ...this.ctx, workTree: this.paths.base }, this.paths.base).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** Upstream's _take, under the lock already held. `tree` is the workspace's tree as staged. */
  private async take(message: string, prune: boolean): Promise<{ result: SnapshotResult; tree?: string }> {
    touchProject(this.paths.meta, this.workingDir);
    const tip = await this.tip();
    // The last snapshot's size (index header) stands in for a walk once there is one.
    const files = indexEntryCount(this.paths.index) ?? countFiles(this.workingDir, this.maxFiles);
    if (files > this.maxFiles) return { result: { created: false, id: tip?.commit, skipped: "too_many_files" } };
    const tree = await this.stageWorkspace(tip?.tree);
    if (tip && tree === tip.tree) return { result: { created: false, id: tip.commit, skipped: "unchanged" }, tree };
    if (!tip && indexEntryCount(this.paths.index) === 0) return { result: { created: false, skipped: "empty" }, tree };
    const body = commitBody(tree, tip?.commit, message);
    const keep = prune ? this.maxSnapshots : undefined;
    let id = await appendSnapshot(this.ctx, this.paths.ref, tip?.commit, body, keep, this.chain);
    if (prune && (await this.sizeBudget())) id = (await this.tip())?.commit ?? id;
    return { result: { created: true, id }, tree };
  }

  /** The ref's tip and its tree, from the files when they are plain (no git process), else from git. */
  private async tip(): Promise<{ commit: string; tree: string } | undefined> {
    const commit = readRef(this.paths.store, this.paths.ref);
    if (commit) {
      const body = this.chain.bodies.get(commit) ?? readLooseObject(this.paths.store, commit, "commit");
      const tree = body && treeOf(body);
      if (tree) return { commit, tree };
    } else if (!refMayExist(this.paths.store, this.paths.ref)) {
      return undefined;
    }
    return refTip(this.ctx, this.paths.ref);
  }

  /** Upstream's size budget after a snapshot; measured every SIZE_CHECK_EVERY snapshots (one git process). */
  private async sizeBudget(): Promise<boolean> {
    if (this.maxTotalBytes <= 0 || ++this.sinceSizeCheck < SIZE_CHECK_EVERY) return false;
    this.sinceSizeCheck = 0;
    try {
      return await dropOneRoundIfOver(this.ctx, this.maxTotalBytes);
    } catch {
      return false;
    }
  }

  /** `git add -A` into the project index, oversize files dropped; returns the staged tree. */
  private async stageWorkspace(tipTree: string | undefined): Promise<string> {
    mkdirSync(dirname(this.paths.index), { recursive: true });
    const index = this.paths.index;
    // First snapshot of this project: everything is new, so store it as one pack rather than a loose object per file.
    if (!existsSync(index)) await importBlobs(this.ctx, index, this.maxFileBytes, isSha256Store(this.paths.store));
    await runGit(this.ctx, ["add", "-A"], { index, timeoutMs: this.ctx.timeoutMs * 2 });
    // `add -A` rewrites the index only when something changed; the same trailer checksum means the same tree.
    const known = this.staged;
    if (known && known.tree === tipTree && indexChecksum(index) === known.checksum) return known.tree;
    const tree = await this.writeTree();
    // Same tree as the last snapshot: it held no oversize file, so neither does this.
    if (this.maxFileBytes <= 0 || tree === tipTree) return tree;
    const oversize = oversizeInIndex(index, this.workingDir, this.maxFileBytes) ?? (await this.oversizeViaGit());
    if (oversize.length === 0) return tree;
    await runGit(
      this.ctx,
      [
        "--literal-pathspecs",
        "rm",
        "--cached",
        "--quiet",
        "--ignore-unmatch",
        "--pathspec-from-file=-",
        "--pathspec-file-nul",
      ],
      { index, input: `${oversize.join("\0")}\0` },
    );
    return this.writeTree();
  }

  private async writeTree(): Promise<string> {
    const tree = await gitText(this.ctx, ["write-tree"], { index: this.paths.index });
    const checksum = indexChecksum(this.paths.index);
    this.staged = checksum ? { checksum, tree } : undefined;
    return tree;
  }

  /**
   * Upstream's _drop_oversize_from_index test (strictly greater than the cap), for an index this cannot read
   * directly (version 4).
   */
  private async oversizeViaGit(): Promise<string[]> {
    const listed = await runGit(this.ctx, ["ls-files", "--cached", "-z"], { index: this.paths.index });
    return splitNul(listed.stdout).filter((path) => {
      try {
        return lstatSync(join(this.workingDir, ...path.split("/"))).size > this.maxFileBytes;
      } catch {
        return false;
      }
    });
  }

  /** Both budgets, as upstream's _prune: a failure stops pruning, never the operation. */
  private async prune(): Promise<void> {
    try {
      const tip = await this.tip();
      if (tip) await trimHistory(this.ctx, this.paths.ref, tip.commit, this.maxSnapshots, this.chain);
      await this.sizeBudget();
    } catch {
      // Upstream logs "Checkpoint pruning stopped" and carries on.
    }
  }
}

/**
 * Creating the shared store and keeping its per-project metadata, as upstream's _init_store, _migrate_legacy_store,
 * _register_project and _touch_project do — same files, same JSON keys — so either Hermes can open what the other
 * made, and upstream's orphan/retention pruning keeps working on projects this one registered.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { CheckpointError, type GitContext, runGit, runGitInit } from "./git.js";
import {
  DEFAULT_EXCLUDES,
  EXCLUDED_DIR_NAMES,
  INDEXES_DIRNAME,
  LEGACY_PREFIX,
  PROJECTS_DIRNAME,
  PRUNE_MARKER_NAME,
  STORE_DIRNAME,
} from "./layout.js";

/** Creates HERMES_HOME/checkpoints/store if needed (moving pre-v2 repositories aside first). Idempotent. */
export async function initStore(ctx: GitContext, base: string): Promise<void> {
  const store = join(base, STORE_DIRNAME);
  if (existsSync(join(store, "HEAD"))) return;
  mkdirSync(base, { recursive: true });
  if (!existsSync(store)) migrateLegacy(base);
  mkdirSync(join(store, INDEXES_DIRNAME), { recursive: true });
  mkdirSync(join(store, PROJECTS_DIRNAME), { recursive: true });
  const init = await runGitInit(ctx, store);
  if (init.code !== 0) throw new CheckpointError(`Shadow store init failed: ${init.stderr.trim()}`);
  // Written into the store's own config, as upstream: identity for commit-tree, and no signing or auto-gc ever.
  const settings: Array<[string, string]> = [
    ["user.email", "hermes@local"],
    ["user.name", "Hermes Checkpoint"],
    ["commit.gpgsign", "false"],
    ["tag.gpgSign", "false"],
    ["gc.auto", "0"],
  ];
  const configCtx = { ...ctx, workTree: base };
  for (const [key, value] of settings) await runGit(configCtx, ["config", key, value]);
  mkdirSync(join(store, "info"), { recursive: true });
  writeFileSync(join(store, "info", "exclude"), `${DEFAULT_EXCLUDES.join("\n")}\n`, "utf8");
}

/** Upstream moves everything under the base that is not the v2 layout into legacy-<local time stamp>/. */
function migrateLegacy(base: string): void {
  const reserved = new Set([STORE_DIRNAME, PRUNE_MARKER_NAME]);
  const children = readdirSync(base).filter((name) => !reserved.has(name) && !name.startsWith(LEGACY_PREFIX));
  if (children.length === 0) return;
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
  const legacy = join(base, `${LEGACY_PREFIX}${stamp}`);
  mkdirSync(legacy, { recursive: true });
  for (const name of children) {
    try {
      renameSync(join(base, name), join(legacy, name));
    } catch {
      // Upstream logs and carries on: a stray entry it cannot move does not stop checkpoints.
    }
  }
}

type Meta = Record<string, unknown>;

/** Python's json.dumps layout (", " and ": "); integers stay integers, so upstream's isinstance(int) checks pass. */
function pythonJson(meta: Meta): string {
  const parts = Object.entries(meta).map(([key, value]) => {
    const encoded = typeof value === "bigint" ? value.toString() : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${encoded}`;
  });
  return `{${parts.join(", ")}}`;
}

/** (st_dev, st_ino) of the workdir's parent while the workdir exists: upstream's evidence for orphan pruning. */
function volumeEvidence(workdir: string): Meta {
  try {
    if (!existsSync(workdir)) return {};
    const st = statSync(dirname(workdir), { bigint: true });
    if (!st.dev || !st.ino) return {};
    return { workdir_parent_dev: st.dev, workdir_parent_ino: st.ino };
  } catch {
    return {};
  }
}

/** Creates or refreshes projects/<hash>.json (created_at kept, last_touch now, unknown keys preserved). */
export function touchProject(metaPath: string, workdir: string): void {
  let existing: Meta = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(metaPath, "utf8").replace(/^\uFEFF/, ""));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) existing = parsed as Meta;
  } catch {
    // Missing or corrupt: start afresh, as upstream.
  }
  const now = Date.now() / 1000;
  // Integers that JSON.parse read as numbers are written back as integers (bigint keeps huge inode numbers exact).
  const meta: Meta = { ...existing, workdir, created_at: existing.created_at ?? now, last_touch: now };
  for (const key of ["workdir_parent_dev", "workdir_parent_ino"]) {
    const value = meta[key];
    if (typeof value === "number" && Number.isInteger(value)) meta[key] = BigInt(value);
  }
  Object.assign(meta, volumeEvidence(workdir));
  try {
    mkdirSync(dirname(metaPath), { recursive: true });
    writeFileSync(metaPath, pythonJson(meta), "utf8");
  } catch {
    // Bookkeeping only; a snapshot does not fail for it.
  }
}

/** Entry count from the index header ("DIRC", version, count): how big the last snapshot was, without git. */
export function indexEntryCount(indexPath: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(indexPath, "r");
    const header = Buffer.alloc(12);
    if (readSync(fd, header, 0, 12, 0) !== 12 || header.toString("latin1", 0, 4) !== "DIRC") return undefined;
    return header.readUInt32BE(8);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The index's trailing checksum (git rewrites the file, and so the checksum, whenever its content changes). */
export function indexChecksum(indexPath: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(indexPath, "r");
    const size = fstatSync(fd).size;
    if (size < 32) return undefined;
    const tail = Buffer.alloc(32);
    readSync(fd, tail, 0, 32, size - 32);
    return tail.toString("hex");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Counts files below `root`, stopping past `limit`. Upstream walks everything (node_modules included); this walk
 * skips the excluded folders, since they are never snapshotted and a big node_modules would otherwise switch
 * checkpoints off for most JavaScript projects. Symlinks are counted, never followed.
 */
export function countFiles(root: string, limit: number): number {
  let count = 0;
  const stack = [root];
  while (stack.length > 0 && count <= limit) {
    const dir = stack.pop() as string;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!EXCLUDED_DIR_NAMES.has(entry.name)) stack.push(join(dir, entry.name));
      } else if (++count > limit) break;
    }
  }
  return count;
}

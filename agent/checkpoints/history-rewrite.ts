/**
 * Adding snapshots and enforcing `checkpoints.max_snapshots` and the store size cap the way upstream's Pruner does:
 * a project's ref is rewritten to its newest N snapshots (trees, authors, dates and messages unchanged; new parents,
 * hence new ids), the ref moves by compare-and-swap so a snapshot published meanwhile is never lost, and the
 * `git gc` that frees dropped objects is deferred (store/.gc-pending, upstream's marker) to maintenance.
 *
 * Upstream spends several git processes per kept commit. Here the history of the ref is remembered between
 * snapshots (ids and raw commit bodies), commit objects are written directly, and a snapshot that also trims moves
 * the ref once: at steady state (history full) that is still one git process, `update-ref`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointError, type GitContext, gitText, runGit } from "./git.js";
import { GC_PENDING_NAME, REFS_PREFIX } from "./layout.js";
import { readLooseObject, updateRefFile, writeLooseCommit } from "./store-objects.js";

/** What this process knows of one ref's history: ids oldest first, valid while the ref still points at `tip`. */
export class ChainCache {
  tip: string | undefined;
  ids: string[] = [];
  readonly bodies = new Map<string, Buffer>();

  remember(tip: string, ids: string[]): void {
    this.tip = tip;
    this.ids = ids;
    for (const id of [...this.bodies.keys()]) if (!ids.includes(id)) this.bodies.delete(id);
  }
}

async function idsOldestFirst(ctx: GitContext, tip: string, cache: ChainCache): Promise<string[]> {
  if (cache.tip === tip) return cache.ids;
  const ids = (await gitText(ctx, ["rev-list", "--reverse", tip, "--"])).split("\n").filter(Boolean);
  if (ids.length === 0) throw new CheckpointError(`checkpoint history unreadable at ${tip}`);
  cache.remember(tip, ids);
  return ids;
}

/** Raw commit bodies: cached, loose on disk, or from one `git cat-file --batch` for the rest. */
async function bodiesOf(ctx: GitContext, ids: readonly string[], cache: ChainCache): Promise<Buffer[]> {
  const missing = ids.filter((id) => {
    if (cache.bodies.has(id)) return false;
    const loose = readLooseObject(ctx.store, id, "commit");
    if (loose) cache.bodies.set(id, loose);
    return !loose;
  });
  if (missing.length > 0) {
    const { stdout } = await runGit(ctx, ["cat-file", "--batch"], { input: `${missing.join("\n")}\n` });
    let at = 0;
    for (const id of missing) {
      const headerEnd = stdout.indexOf(0x0a, at);
      const [, type, size] = stdout.toString("latin1", at, headerEnd).split(" ");
      if (type !== "commit") throw new CheckpointError(`not a checkpoint commit: ${id}`);
      cache.bodies.set(id, stdout.subarray(headerEnd + 1, headerEnd + 1 + Number(size)));
      at = headerEnd + 1 + Number(size) + 1;
    }
  }
  return ids.map((id) => cache.bodies.get(id) as Buffer);
}

/** The same commit with its parent replaced (or removed, for a new oldest). */
export function reparent(body: Buffer, parent: string | undefined): Buffer {
  const text = body.toString("latin1");
  const headerEnd = text.indexOf("\n\n");
  const headers = (headerEnd === -1 ? text : text.slice(0, headerEnd)).split("\n");
  const rest = headerEnd === -1 ? "" : text.slice(headerEnd);
  const kept = headers.filter((line) => !line.startsWith("parent "));
  if (parent) kept.splice(1, 0, `parent ${parent}`);
  return Buffer.from(kept.join("\n") + rest, "latin1");
}

let sha256Stores: Map<string, boolean> | undefined;
/** Whether the store was created with `--object-format=sha256` (then objects are left to git to write). */
export function isSha256Store(store: string): boolean {
  sha256Stores ??= new Map();
  let known = sha256Stores.get(store);
  if (known === undefined) {
    try {
      known = /objectformat\s*=\s*sha256/i.test(readFileSync(join(store, "config"), "utf8"));
    } catch {
      known = false;
    }
    sha256Stores.set(store, known);
  }
  return known;
}

async function writeCommit(ctx: GitContext, body: Buffer, cache: ChainCache): Promise<string> {
  const id = isSha256Store(ctx.store)
    ? await gitText(ctx, ["hash-object", "-t", "commit", "-w", "--stdin"], { input: body })
    : writeLooseCommit(ctx.store, body);
  cache.bodies.set(id, body);
  return id;
}

/** Re-chains `bodies` (oldest first) onto `base`, writing each; returns the new ids. */
async function rechain(ctx: GitContext, bodies: readonly Buffer[], base: string | undefined, cache: ChainCache) {
  const ids: string[] = [];
  let parent = base;
  for (const body of bodies) {
    parent = await writeCommit(ctx, reparent(body, parent), cache);
    ids.push(parent);
  }
  return ids;
}

function markGcPending(store: string): void {
  try {
    writeFileSync(join(store, GC_PENDING_NAME), "");
  } catch {
    // The marker only schedules reclaiming space.
  }
}

/**
 * Publishes a new snapshot `body` (a commit whose parent is `tip`) on `ref`, keeping at most `keep` snapshots when
 * given: upstream's commit + Pruner.trim, with one ref update. Returns the new tip.
 */
export async function appendSnapshot(
  ctx: GitContext,
  ref: string,
  tip: string | undefined,
  body: Buffer,
  keep: number | undefined,
  cache: ChainCache,
): Promise<string> {
  const ids = tip ? await idsOldestFirst(ctx, tip, cache) : [];
  let chain: string[];
  if (keep !== undefined && ids.length + 1 > Math.max(1, keep)) {
    const kept = ids.slice(ids.length - (Math.max(1, keep) - 1));
    chain = await rechain(ctx, [...(await bodiesOf(ctx, kept, cache)), body], undefined, cache);
  } else {
    chain = [...ids, await writeCommit(ctx, body, cache)];
  }
  const newTip = chain[chain.length - 1] as string;
  // Never overwrite a snapshot published since this history was read ("" = the ref must not exist yet).
  if (!updateRefFile(ctx.store, ref, newTip, tip)) await runGit(ctx, ["update-ref", ref, newTip, tip ?? ""]);
  if (chain.length <= ids.length) markGcPending(ctx.store);
  cache.remember(newTip, chain);
  return newTip;
}

/** Upstream's Pruner.trim on its own (after a restore): keep the newest `keep` snapshots. Returns whether it cut. */
export async function trimHistory(ctx: GitContext, ref: string, tip: string, keep: number, cache: ChainCache) {
  const ids = await idsOldestFirst(ctx, tip, cache);
  if (ids.length <= Math.max(1, keep)) return false;
  const chain = await rechain(ctx, await bodiesOf(ctx, ids.slice(-Math.max(1, keep)), cache), undefined, cache);
  const newTip = chain[chain.length - 1] as string;
  await runGit(ctx, ["update-ref", ref, newTip, tip]);
  markGcPending(ctx.store);
  cache.remember(newTip, chain);
  return true;
}

/** Bytes of git objects in the store (loose, packed and garbage), from one `git count-objects -v`. */
export async function storeObjectBytes(ctx: GitContext): Promise<number> {
  const out = await gitText(ctx, ["count-objects", "-v"]);
  let kib = 0;
  for (const line of out.split("\n")) {
    const [key, value] = line.split(": ");
    if (key === "size" || key === "size-pack" || key === "size-garbage") kib += Number(value) || 0;
  }
  return kib * 1024;
}

/**
 * Upstream's take-path size budget (Pruner.drop_one_round): over the cap, drop the oldest snapshot of every
 * project once. One round per snapshot converges over turns without flattening every history at once.
 */
export async function dropOneRoundIfOver(ctx: GitContext, capBytes: number): Promise<boolean> {
  if (capBytes <= 0 || (await storeObjectBytes(ctx)) <= capBytes) return false;
  const refs = (await gitText(ctx, ["for-each-ref", "--format=%(refname) %(objectname)", REFS_PREFIX]))
    .split("\n")
    .filter(Boolean);
  let changed = false;
  for (const line of refs) {
    const [ref, tip] = line.split(" ") as [string, string];
    const cache = new ChainCache();
    const ids = await idsOldestFirst(ctx, tip, cache);
    if (ids.length > 1) changed = (await trimHistory(ctx, ref, tip, ids.length - 1, cache)) || changed;
  }
  return changed;
}

/** Upstream's Pruner.reclaim: expire reflogs and gc, freeing what trimming dropped. Slow; for maintenance only. */
export async function reclaimSpace(ctx: GitContext): Promise<void> {
  await runGit(ctx, ["reflog", "expire", "--expire=now", "--all"]);
  await runGit(ctx, ["gc", "--prune=now", "--quiet"], { timeoutMs: ctx.timeoutMs * 3 });
  // A bare store whose refs were all packed must still look like a repository.
  for (const name of ["refs/heads", "branches"]) mkdirSync(join(ctx.store, name), { recursive: true });
  rmSync(join(ctx.store, GC_PENDING_NAME), { force: true });
}

import { isAbsolute, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import type { DirEntry, Workspace } from "../../workspace/workspace.js";

const LIST_CONCURRENCY = 8;
// Dependency, VCS and build-output folders: huge, generated, and never what the model is looking for, unless the
// path argument points inside one (the walk never filters the folder it starts from).
const HEAVY_DIRS = new Set(
  (
    ".git .hg .svn node_modules bower_components dist build out-tsc .venv venv __pycache__ target .next .nuxt " +
    ".svelte-kit .turbo .parcel-cache .cache coverage .nyc_output .tox .mypy_cache .pytest_cache .ruff_cache " +
    ".gradle .terraform .eggs"
  ).split(" "),
);

/**
 * Decides whether the walk yields a file it found: `path` as listed, `link` when the entry is a symlink (the walk
 * follows none by itself: it may point anywhere, a loop included).
 */
export type FileAdmission = (path: string, link: boolean) => boolean | Promise<boolean>;

export interface IgnoreLayer {
  /** The folder holding the .gitignore; its rules are relative to it. */
  readonly base: string;
  readonly rules: Ignore;
}

/** .gitignore files from the workspace root down to (not including) `searchRoot`, which the walk loads itself. */
export async function ignoreLayersAbove(ws: Workspace, searchRoot: string): Promise<IgnoreLayer[]> {
  const rel = relative(ws.root, searchRoot);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return [];
  const layers: IgnoreLayer[] = [];
  let dir = ws.root;
  for (const part of ["", ...rel.split(sep).slice(0, -1)]) {
    dir = join(dir, part);
    const layer = await loadIgnore(ws, dir);
    if (layer) layers.push(layer);
  }
  // A search pointed explicitly into an ignored folder (dist/, a vendored copy) searches it anyway.
  return isIgnored(layers, searchRoot, true) ? [] : layers;
}

async function loadIgnore(ws: Workspace, dir: string): Promise<IgnoreLayer | undefined> {
  try {
    return { base: dir, rules: ignore().add(await ws.readTextFile(join(dir, ".gitignore"))) };
  } catch {
    return undefined;
  }
}

/** Git's precedence: the deepest .gitignore that has an opinion (ignore or re-include) decides. */
function isIgnored(layers: readonly IgnoreLayer[], path: string, isDir: boolean): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const rel = relative(layers[i].base, path).split(sep).join("/");
    if (rel === "" || rel.startsWith("../")) continue;
    try {
      const result = layers[i].rules.test(isDir ? `${rel}/` : rel);
      if (result.ignored) return true;
      if (result.unignored) return false;
    } catch {
      // a name the ignore package cannot judge is simply not ignored
    }
  }
  return false;
}

/**
 * Files under `root` in sorted path order, depth first. Folder listings are fetched ahead (bounded) while earlier
 * folders are still being consumed, so a deep tree is not listed one round trip at a time; nothing else is buffered.
 * Linked folders are never entered (they can loop back up the tree or lead out of it); files, linked or not, are
 * yielded only when `admit` says so.
 */
export async function* walkFiles(
  ws: Workspace,
  root: string,
  rootLayers: readonly IgnoreLayer[],
  signal: AbortSignal,
  admit: FileAdmission,
): AsyncGenerator<string> {
  const run = limiter(LIST_CONCURRENCY);
  const listings = new Map<string, Promise<DirEntry[]>>();
  const list = (dir: string) => {
    let listing = listings.get(dir);
    if (!listing) listings.set(dir, (listing = run(() => ws.readDir(dir)).catch((): DirEntry[] => [])));
    return listing;
  };
  async function* walk(dir: string, parentLayers: readonly IgnoreLayer[]): AsyncGenerator<string> {
    const entries = await list(dir);
    listings.delete(dir);
    const own = entries.some((e) => e.name === ".gitignore") ? await loadIgnore(ws, dir) : undefined;
    const layers = own ? [...parentLayers, own] : parentLayers;
    const kept = entries
      .filter((e) => !(e.isDirectory && HEAVY_DIRS.has(e.name)) && !isIgnored(layers, join(dir, e.name), e.isDirectory))
      .map((e) => ({ entry: e, key: e.isDirectory ? `${e.name}/` : e.name }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { entry } of kept) if (entry.isDirectory) void list(join(dir, entry.name));
    for (const { entry } of kept) {
      if (signal.aborted) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory) yield* walk(path, layers);
      else if ((entry.isFile || entry.isSymlink) && (await admit(path, entry.isSymlink))) yield path;
    }
  }
  yield* walk(root, rootLayers);
}

function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active < max) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing task hands its slot over
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

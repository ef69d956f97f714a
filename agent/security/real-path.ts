import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";

/**
 * The real path of `path`: `..` folded, symlinks of its longest existing prefix resolved, the missing rest appended.
 * A write through a link lands on the link's target, so that target is what every rule must judge. The native
 * realpath also gives the on-disk spelling on case-insensitive file systems (macOS, Windows), so `.GIT/config` and
 * `.git/config` compare equal there; on Linux it is the same as the JS one.
 */
export function realPath(path: string, depth = 0): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  let head = absolute;
  for (;;) {
    try {
      return join(realpathSync.native(head), ...missing.reverse());
    } catch {
      const target = danglingLinkTarget(head);
      if (target !== undefined && depth < 40)
        return join(realPath(resolve(dirname(head), target), depth + 1), ...missing.reverse());
      const parent = dirname(head);
      if (parent === head) return absolute;
      missing.push(basename(head));
      head = parent;
    }
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** `~` and `~/x` against `home`; relative paths against the process's cwd. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(path);
}

/** Strictly below `dir` (both already resolved). */
export function isUnder(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export function isSameOrUnder(path: string, dir: string): boolean {
  return path === dir || isUnder(path, dir);
}

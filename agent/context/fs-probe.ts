import { existsSync, realpathSync, type Stats, statSync } from "node:fs";
import { dirname, join } from "node:path";

/** The path with symlinks resolved, or the path itself when it does not (yet) exist. */
export function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** stat, or undefined when nothing is there. */
export function statOr(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The nearest folder at or above `start` that holds `.git`, or undefined outside a repository. */
export function findGitRoot(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

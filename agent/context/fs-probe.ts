import { realpathSync, type Stats, statSync } from "node:fs";

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

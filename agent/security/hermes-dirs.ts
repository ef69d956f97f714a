import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isSameOrUnder, realPath } from "./real-path.js";

/**
 * The Hermes root: `<root>` for a profile home `<root>/profiles/<name>`, ~/.hermes for anything under it,
 * else HERMES_HOME itself (Docker and custom installs), as upstream's get_default_hermes_root.
 */
export function hermesRootOf(hermesHome: string, home?: string): string {
  if (home) {
    const native = join(home, ".hermes");
    if (isSameOrUnder(realPath(hermesHome), realPath(native))) return native;
  }
  return basename(dirname(hermesHome)) === "profiles" ? dirname(dirname(hermesHome)) : hermesHome;
}

/** Where the scanner keeps its verdicts under a HERMES_HOME (scan-verdicts.ts); the file tools never write it. */
export function scanVerdictsFileOf(hermesHome: string): string {
  return join(hermesHome, "cache", "scan-verdicts.json");
}

/** HERMES_HOME and its root (the same folder unless HERMES_HOME is a profile), resolved. */
export function hermesDirs(hermesHome: string, home?: string): string[] {
  return [...new Set([realPath(hermesHome), realPath(hermesRootOf(hermesHome, home))])];
}

/** Every profile folder under the root, resolved. */
export function profileDirs(root: string): string[] {
  try {
    const profiles = join(root, "profiles");
    return readdirSync(profiles, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => realPath(join(profiles, e.name)));
  } catch {
    return [];
  }
}

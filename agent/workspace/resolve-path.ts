import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Env } from "../config/hermes-home.js";

/** What the file tools need from outside the session: the user's home (for ~ and ~/.ssh rules) and the env. */
export interface FileToolOptions {
  readonly userHome: string;
  /** Read for HERMES_WRITE_SAFE_ROOT when a tool runs (pass a live object such as process.env). */
  readonly env: Env;
}

/** An absolute path for a tool's path argument: `~` expands to `home`, relative paths resolve against `root`. */
export function resolveToolPath(raw: string, root: string, home: string): string {
  const path = raw.trim();
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(root, path);
}

/** How a path is shown to the model: relative to the workspace root when inside it (shorter, and what the model
 * passes back), absolute otherwise. */
export function displayPath(absolute: string, root: string): string {
  const rel = relative(root, absolute);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** A matcher for a glob: against the relative path when the glob has a `/`, else against the name (case-insensitive). */
export function globMatcher(glob: string): (relativePath: string, name: string) => boolean {
  const regex = new RegExp(`^${globSource(glob)}$`, "i");
  const onPath = glob.includes("/");
  return (relativePath, name) => regex.test(onPath ? relativePath.split(sep).join("/") : name);
}

function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      i += glob[i + 2] === "/" ? 2 : 1;
      out += glob[i] === "/" ? "(?:.*/)?" : ".*";
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[" && glob.indexOf("]", i + 2) !== -1) {
      const close = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, close);
      out += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
      i = close;
    } else if (c === "{" && glob.indexOf("}", i) !== -1) {
      const close = glob.indexOf("}", i);
      out += `(?:${glob
        .slice(i + 1, close)
        .split(",")
        .map(globSource)
        .join("|")})`;
      i = close;
    } else out += escapeRegExp(c);
  }
  return out;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

import { join, sep } from "node:path";
import { realPath } from "../security/file-safety.js";
import { threatWarning, wrapUntrusted } from "./untrusted-content.js";

/**
 * HERMES_HOME/cache/web holds the full text of long pages web_extract showed only in part (page-budget.ts), for the
 * model to page through with read_file. That text is someone else's page, so reading it must not launder it into
 * trusted file content: read_file wraps it as untrusted data with the scanner's findings, as web_extract does.
 */
export function savedPagesDir(home: string): string {
  return join(home, "cache", "web");
}

/** Whether `path` (absolute) is a file under HERMES_HOME/cache/web, symlinks resolved. */
export function isSavedWebPage(path: string, home: string): boolean {
  const dir = realPath(savedPagesDir(home));
  return realPath(path).startsWith(dir + sep);
}

/** read_file's numbered output of a saved page, wrapped; `text` is the raw text of the lines shown (what is scanned). */
export function wrapSavedWebPage(shownPath: string, numbered: string, text: string): string {
  return wrapSavedWebText("read_file", numbered, [{ shownPath, text }]);
}

/**
 * A tool's output that shows lines of saved pages (search_files matches), wrapped, with one scanner warning per page
 * whose lines were flagged; `pages` holds the raw text of those lines, page by page.
 */
export function wrapSavedWebText(
  source: string,
  output: string,
  pages: ReadonlyArray<{ readonly shownPath: string; readonly text: string }>,
): string {
  const warnings = pages.flatMap((p) => threatWarning(`the saved page ${p.shownPath}`, p.text) ?? []);
  return wrapUntrusted(source, output, warnings);
}

import { basename, dirname, join, relative } from "node:path";
import * as z from "zod/v4";
import { ReadDenyRules } from "../../security/read-deny.js";
import { isUnder, realPath } from "../../security/real-path.js";
import { isSavedWebPage, wrapSavedWebText } from "../../web/saved-pages.js";
import {
  displayPath,
  escapeRegExp,
  type FileToolOptions,
  globMatcher,
  resolveToolPath,
} from "../../workspace/resolve-path.js";
import type { Workspace } from "../../workspace/workspace.js";
import { defineTool } from "../define-tool.js";
import { shorten, shownPath, str } from "../describe-call.js";
import { approveRead } from "../safety/read-approval.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import { hasBinaryExtension, notFoundMessage, splitLines } from "./read-file.js";
import type { FileAdmission } from "./search-walk.js";

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const SCAN_CONCURRENCY = 16;
const MAX_LINE_CHARS = 500;

type OutputMode = "content" | "files_with_matches" | "count";

interface FileHits {
  readonly path: string;
  readonly count: number;
  /** Matching lines (1-based numbers), at most as many as could be shown. */
  readonly matches: ReadonlyArray<{ readonly line: number; readonly text: string }>;
  /** Context lines around the kept matches. */
  readonly context: ReadonlyMap<number, string>;
}

export function createSearchFilesTool(options: FileToolOptions) {
  return defineTool({
    name: "search_files",
    toolsets: ["file"],
    kind: "search",
    untrustedOutput: "file",
    pathArguments: { paths: ["path"] },
    description:
      'Search the project. target="content" (default): find lines matching a regex (literal text if it is not a ' +
      'valid regex) in text files, output `path:line:text`. target="files": find files whose names match a glob ' +
      '(e.g. "*.test.ts"; a plain word matches names containing it). Respects .gitignore and skips node_modules, ' +
      ".git, build output and binary files. Use it instead of grep/find in the terminal.",
    parameters: () =>
      z.object({
        pattern: z
          .string()
          .describe("Regex for content (prefix (?i) to ignore case), or a file-name glob for target=files."),
        target: z.enum(["content", "files"]).optional().describe("content (default) or files."),
        path: z.string().optional().describe("Folder (or file) to search; default the project root."),
        file_glob: z
          .string()
          .optional()
          .describe('Only files whose names match this glob, e.g. "*.ts" or "src/**/*.py".'),
        limit: z.int().optional().describe("Maximum results to return (default 50)."),
        offset: z.int().optional().describe("Results to skip, for paging (default 0)."),
        output_mode: z
          .enum(["content", "files_with_matches", "count"])
          .optional()
          .describe("For content search: matching lines (default), only the file paths, or match counts per file."),
        context: z.int().optional().describe("Lines of context before and after each matching line (default 0)."),
      }),
    describe: (args, cwd) => {
      const path = shownPath(args, cwd);
      return { title: `Search for '${shorten(str(args?.pattern), 60)}'${path ? ` in ${path}` : ""}`, locations: [] };
    },
    run: (args, ctx) => searchFiles(args, ctx, options),
  });
}

async function searchFiles(
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<ToolResult> {
  const ws = ctx.workspace;
  const pattern = String(args.pattern);
  if (pattern === "") return toolError("pattern is empty.");
  const start = resolveToolPath(
    typeof args.path === "string" && args.path.trim() ? args.path : ".",
    ws.root,
    options.userHome,
  );
  const denyRules = new ReadDenyRules({ hermesHome: ctx.home, home: options.userHome });
  const blocked = denyRules.check(start);
  if (blocked) return toolError(blocked);
  const stat = await ws.stat(start);
  // Outside the workspace asks before anything is read or listed (a search reads the whole tree it starts at).
  const refused = await approveRead(ctx, start, {
    ...options,
    tool: "search_files",
    recursive: stat?.isDirectory ?? false,
  });
  if (refused) return toolError(refused);
  if (!stat) return toolError(await notFoundMessage(ws, start, ws.root));
  const limit = clamp(args.limit, 50, 1, 1000);
  const offset = clamp(args.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const need = offset + limit;
  const fileGlob =
    typeof args.file_glob === "string" && args.file_glob.trim() ? globMatcher(args.file_glob.trim()) : undefined;
  const searchRoot = stat.isDirectory ? start : dirname(start);
  // The walk (and the ignore-file parser) loads with the first search, not with the engine.
  const { ignoreLayersAbove, walkFiles } = await import("./search-walk.js");
  const layers = await ignoreLayersAbove(ws, searchRoot);
  const files = stat.isDirectory
    ? walkFiles(ws, start, layers, ctx.signal, admission(ws, start, args.target === "files" ? undefined : denyRules))
    : singleFile(start);
  const wanted = (file: string) => !fileGlob || fileGlob(relative(searchRoot, file), basename(file));
  const shown = (path: string) => displayPath(path, ws.root);
  const where = start === ws.root ? "the project" : shown(start);

  if (args.target === "files") {
    const names = globMatcher(/[*?[{]/.test(pattern) ? pattern : `*${pattern}*`);
    const found: string[] = [];
    let more = false;
    for await (const file of files) {
      if (!wanted(file) || !names(relative(searchRoot, file), basename(file))) continue;
      if (found.length === need) {
        more = true;
        break;
      }
      found.push(shown(file));
    }
    if (ctx.signal.aborted) return toolError("search_files was cancelled.");
    return {
      content: page(
        found.slice(offset),
        found.length,
        offset,
        limit,
        more,
        `No files matching '${pattern}' in ${where}.`,
      ),
    };
  }

  const { regex, literal } = compilePattern(pattern);
  const mode: OutputMode =
    args.output_mode === "files_with_matches" || args.output_mode === "count" ? args.output_mode : "content";
  const contextLines = mode === "content" ? clamp(args.context, 0, 0, 10) : 0;
  const hits: FileHits[] = [];
  let units = 0; // results so far: matching lines (content mode) or files
  let more = false;
  const pending: Array<Promise<FileHits | undefined>> = [];
  const take = (h: FileHits | undefined) => {
    if (!h) return;
    hits.push(h);
    units += mode === "content" ? h.count : 1;
  };
  for await (const file of files) {
    if (units >= need) {
      more = true;
      break;
    }
    if (!wanted(file)) continue;
    pending.push(scanFile(file, regex, need, contextLines, ctx));
    if (pending.length >= SCAN_CONCURRENCY) take(await pending.shift());
  }
  while (pending.length > 0) {
    // Files already started still count, in walk order, so the output stays sorted whatever finishes first.
    if (units >= need) more = true;
    take(await pending.shift());
  }
  if (ctx.signal.aborted) return toolError("search_files was cancelled.");
  const note = literal ? "(pattern is not a valid regular expression; searched for it as literal text)\n" : "";
  const empty = `No matches for '${pattern}' in ${where}.`;
  if (mode === "files_with_matches" || mode === "count") {
    const lines = hits.map((h) => (mode === "count" ? `${shown(h.path)}:${h.count}` : shown(h.path)));
    return { content: note + page(lines.slice(offset, need), lines.length, offset, limit, more, empty) };
  }
  const total = hits.reduce((n, h) => n + h.count, 0);
  const output = page(renderMatches(hits, offset, limit, contextLines, shown), total, offset, limit, more, empty);
  // Lines of a page web_extract saved are untrusted web text: wrapped and scanned, as read_file returns them.
  const saved = hits
    .filter((h) => isSavedWebPage(h.path, ctx.home))
    .map((h) => ({ shownPath: shown(h.path), text: [...h.context.values()].join("\n") }));
  return { content: note + (saved.length > 0 ? wrapSavedWebText("search_files", output, saved) : output) };
}

/**
 * Which files of a walk from `root` may be opened: the read-deny rules on every one, judged on its resolved path
 * (a file the walk reached without a link is `realRoot` + its relative path, so only links cost a realpath), and a
 * link only when its target stays inside the search root: a link is no way out of the folder being searched. A
 * search for file names opens nothing, so it lists denied files (without `rules`) but still follows no link out.
 */
function admission(ws: Workspace, root: string, rules: ReadDenyRules | undefined): FileAdmission {
  const realRoot = realPath(root);
  return async (path, link) => {
    const resolved = link ? realPath(path) : join(realRoot, relative(root, path));
    if (link && !isUnder(resolved, realRoot)) return false;
    if (rules?.denialOf(resolved) !== undefined) return false;
    return !link || (await ws.stat(path))?.isFile === true;
  };
}

/** One file's matches; anything but a regular file of at most MAX_FILE_BYTES is skipped without being opened. */
async function scanFile(
  path: string,
  regex: RegExp,
  keep: number,
  contextLines: number,
  ctx: ToolContext,
): Promise<FileHits | undefined> {
  const ws = ctx.workspace;
  if (ctx.signal.aborted || hasBinaryExtension(basename(path))) return undefined;
  const stat = await ws.stat(path);
  if (!stat?.isFile || stat.size > MAX_FILE_BYTES) return undefined;
  let text: string;
  try {
    text = await ws.readTextFile(path);
  } catch {
    return undefined;
  }
  // One pass over the whole text rules most files out cheaply; anchored patterns (^ $) must be tried line by line.
  const anchored = /[\^$]/.test(regex.source);
  if (text.slice(0, 8192).includes("\0") || (!anchored && !regex.test(text))) return undefined;
  const lines = splitLines(text);
  const matches: Array<{ line: number; text: string }> = [];
  const context = new Map<number, string>();
  let count = 0;
  lines.forEach((line, i) => {
    if (!regex.test(line)) return;
    count += 1;
    if (matches.length >= keep) return;
    matches.push({ line: i + 1, text: line });
    for (let j = Math.max(0, i - contextLines); j <= Math.min(lines.length - 1, i + contextLines); j++)
      context.set(j + 1, lines[j]);
  });
  return count > 0 ? { path, count, matches, context } : undefined;
}

/** `path:line:text` for matches and, with context, `path-line-text` around them and `--` between groups. */
function renderMatches(
  hits: readonly FileHits[],
  offset: number,
  limit: number,
  contextLines: number,
  shown: (p: string) => string,
): string[] {
  const out: string[] = [];
  let seen = 0; // matches before this file, across files, to cut the page [offset, offset + limit)
  for (const hit of hits) {
    const selected = hit.matches.slice(Math.max(0, offset - seen), Math.max(0, offset + limit - seen));
    seen += hit.matches.length;
    if (selected.length === 0) continue;
    const name = shown(hit.path);
    const cut = (text: string) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}...` : text);
    if (contextLines === 0) {
      for (const m of selected) out.push(`${name}:${m.line}:${cut(m.text)}`);
      continue;
    }
    const matchLines = new Set(selected.map((m) => m.line));
    let last = -1;
    for (const m of selected) {
      const from = Math.max(1, m.line - contextLines, last + 1);
      if (last !== -1 && from > last + 1) out.push("--");
      else if (last === -1 && out.length > 0) out.push("--");
      for (let n = from; n <= m.line + contextLines && hit.context.has(n); n++) {
        out.push(
          `${name}${matchLines.has(n) ? ":" : "-"}${n}${matchLines.has(n) ? ":" : "-"}${cut(hit.context.get(n) ?? "")}`,
        );
        last = n;
      }
    }
  }
  return out;
}

function page(
  lines: readonly string[],
  total: number,
  offset: number,
  limit: number,
  more: boolean,
  empty: string,
): string {
  if (total === 0) return empty;
  if (lines.length === 0) return `No results at offset ${offset} (${total} found${more ? " so far" : ""}).`;
  const last = offset + Math.min(lines.length, limit);
  if (more || total > last)
    return `${lines.join("\n")}\n[Showing results ${offset + 1}-${last}; more may exist. Call search_files with offset=${last} to see more.]`;
  return lines.join("\n");
}

async function* singleFile(path: string): AsyncGenerator<string> {
  yield path;
}

function compilePattern(pattern: string): { regex: RegExp; literal: boolean } {
  const ignoreCase = pattern.startsWith("(?i)");
  const source = ignoreCase ? pattern.slice(4) : pattern;
  try {
    return { regex: new RegExp(source, ignoreCase ? "i" : ""), literal: false };
  } catch {
    return { regex: new RegExp(escapeRegExp(source), ignoreCase ? "i" : ""), literal: true };
  }
}

function clamp(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === "number" && Number.isFinite(value) ? Math.floor(value) : fallback;
  return Math.min(max, Math.max(min, n));
}

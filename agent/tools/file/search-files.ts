import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { isSecretEnvFileName, readBlockedError } from "../safety/file-safety.js";
import { toolError, type Tool, type ToolContext, type ToolResult } from "../tool.js";
import { isSavedWebPage, wrapSavedWebText } from "../web/saved-pages.js";
import { hasBinaryExtension, notFoundMessage, splitLines } from "./read-file.js";
import { displayPath, escapeRegExp, globMatcher, resolveToolPath, type FileToolOptions } from "./resolve-path.js";
import type { DirEntry, Workspace } from "../../workspace/workspace.js";

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const SCAN_CONCURRENCY = 16;
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
const MAX_LINE_CHARS = 500;
// Names of Hermes credential stores: only files like these pay for the full (realpath) read-deny check.
const CREDENTIAL_HINT = /auth\.json|auth\.lock|oauth|webhook_subscriptions|bws_cache|mcp-tokens|\.hub/;

type OutputMode = "content" | "files_with_matches" | "count";

interface FileHits {
  readonly path: string;
  readonly count: number;
  /** Matching lines (1-based numbers), at most as many as could be shown. */
  readonly matches: ReadonlyArray<{ readonly line: number; readonly text: string }>;
  /** Context lines around the kept matches. */
  readonly context: ReadonlyMap<number, string>;
}

export function createSearchFilesTool(options: FileToolOptions): Tool {
  return {
    name: "search_files",
    description:
      "Search the project. target=\"content\" (default): find lines matching a regex (literal text if it is not a " +
      "valid regex) in text files, output `path:line:text`. target=\"files\": find files whose names match a glob " +
      "(e.g. \"*.test.ts\"; a plain word matches names containing it). Respects .gitignore and skips node_modules, " +
      ".git, build output and binary files. Use it instead of grep/find in the terminal.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Regex for content (prefix (?i) to ignore case), or a file-name glob for target=files." },
        target: { type: "string", enum: ["content", "files"], description: "content (default) or files." },
        path: { type: "string", description: "Folder (or file) to search; default the project root." },
        file_glob: { type: "string", description: "Only files whose names match this glob, e.g. \"*.ts\" or \"src/**/*.py\"." },
        limit: { type: "integer", description: "Maximum results to return (default 50)." },
        offset: { type: "integer", description: "Results to skip, for paging (default 0)." },
        output_mode: {
          type: "string",
          enum: ["content", "files_with_matches", "count"],
          description: "For content search: matching lines (default), only the file paths, or match counts per file.",
        },
        context: { type: "integer", description: "Lines of context before and after each matching line (default 0)." },
      },
      required: ["pattern"],
    },
    run: (args, ctx) => searchFiles(args, ctx, options),
  };
}

async function searchFiles(args: Readonly<Record<string, unknown>>, ctx: ToolContext, options: FileToolOptions): Promise<ToolResult> {
  const ws = ctx.workspace;
  const pattern = String(args.pattern);
  if (pattern === "") return toolError("pattern is empty.");
  const start = resolveToolPath(typeof args.path === "string" && args.path.trim() ? args.path : ".", ws.root, options.userHome);
  const blocked = readBlockedError(start, { hermesHome: ctx.home, home: options.userHome });
  if (blocked) return toolError(blocked);
  const stat = await ws.stat(start);
  if (!stat) return toolError(await notFoundMessage(ws, start, ws.root));
  const limit = clamp(args.limit, 50, 1, 1000);
  const offset = clamp(args.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const need = offset + limit;
  const fileGlob = typeof args.file_glob === "string" && args.file_glob.trim() ? globMatcher(args.file_glob.trim()) : undefined;
  const searchRoot = stat.isDirectory ? start : dirname(start);
  const layers = await ignoreLayersAbove(ws, searchRoot);
  const files = stat.isDirectory ? walkFiles(ws, start, layers, ctx.signal) : singleFile(start);
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
    return { content: page(found.slice(offset), found.length, offset, limit, more, `No files matching '${pattern}' in ${where}.`) };
  }

  const { regex, literal } = compilePattern(pattern);
  const mode: OutputMode = args.output_mode === "files_with_matches" || args.output_mode === "count" ? args.output_mode : "content";
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
    pending.push(scanFile(file, regex, need, contextLines, ctx, options));
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
  const saved = hits.filter((h) => isSavedWebPage(h.path, ctx.home)).map((h) => ({ shownPath: shown(h.path), text: [...h.context.values()].join("\n") }));
  return { content: note + (saved.length > 0 ? wrapSavedWebText("search_files", output, saved) : output) };
}

async function scanFile(
  path: string,
  regex: RegExp,
  keep: number,
  contextLines: number,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<FileHits | undefined> {
  const ws = ctx.workspace;
  const name = basename(path);
  if (ctx.signal.aborted || hasBinaryExtension(name) || isSecretEnvFileName(name)) return undefined;
  if (CREDENTIAL_HINT.test(path) && readBlockedError(path, { hermesHome: ctx.home, home: options.userHome })) return undefined;
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
    for (let j = Math.max(0, i - contextLines); j <= Math.min(lines.length - 1, i + contextLines); j++) context.set(j + 1, lines[j]);
  });
  return count > 0 ? { path, count, matches, context } : undefined;
}

/** `path:line:text` for matches and, with context, `path-line-text` around them and `--` between groups. */
function renderMatches(hits: readonly FileHits[], offset: number, limit: number, contextLines: number, shown: (p: string) => string): string[] {
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
        out.push(`${name}${matchLines.has(n) ? ":" : "-"}${n}${matchLines.has(n) ? ":" : "-"}${cut(hit.context.get(n) ?? "")}`);
        last = n;
      }
    }
  }
  return out;
}

function page(lines: readonly string[], total: number, offset: number, limit: number, more: boolean, empty: string): string {
  if (total === 0) return empty;
  if (lines.length === 0) return `No results at offset ${offset} (${total} found${more ? " so far" : ""}).`;
  const last = offset + Math.min(lines.length, limit);
  if (more || total > last) return `${lines.join("\n")}\n[Showing results ${offset + 1}-${last}; more may exist. Call search_files with offset=${last} to see more.]`;
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


interface IgnoreLayer {
  /** The folder holding the .gitignore; its rules are relative to it. */
  readonly base: string;
  readonly rules: Ignore;
}

/** .gitignore files from the workspace root down to (not including) `searchRoot`, which the walk loads itself. */
async function ignoreLayersAbove(ws: Workspace, searchRoot: string): Promise<IgnoreLayer[]> {
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
 */
async function* walkFiles(ws: Workspace, root: string, rootLayers: readonly IgnoreLayer[], signal: AbortSignal): AsyncGenerator<string> {
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
      else if (entry.isFile) yield path;
      // Linked files are followed; linked folders are not (they can loop back up the tree).
      else if (entry.isSymlink && (await ws.stat(path))?.isFile) yield path;
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

import { basename, dirname, extname, join } from "node:path";
import * as z from "zod/v4";
import { readBlockedError } from "../../security/file-safety.js";
import { isSavedWebPage, wrapSavedWebPage } from "../../web/saved-pages.js";
import { displayPath, type FileToolOptions, resolveToolPath } from "../../workspace/resolve-path.js";
import type { Workspace } from "../../workspace/workspace.js";
import { defineTool, type ToolArgs } from "../define-tool.js";
import { pathLocations, shownPath } from "../describe-call.js";
import { approveRead } from "../safety/read-approval.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import { specialFileError } from "./file-kind.js";

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
// About 25-35k tokens: a bigger single read crowds out the conversation, so the model pages instead.
const MAX_OUTPUT_CHARS = 100_000;
const BINARY_SNIFF_BYTES = 8192;

const BINARY_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif bmp ico icns webp tif tiff psd heic avif mp3 mp4 m4a m4v wav ogg oga flac aac avi mov mkv webm wmv " +
    "zip tar gz tgz bz2 xz zst 7z rar jar war ear whl egg exe dll so dylib a lib o obj class pyc pyo wasm node " +
    "pdf doc docx xls xlsx ppt pptx odt ods odp ttf otf woff woff2 eot sqlite sqlite3 db dmg iso img deb rpm apk ipa " +
    "npy npz pt pth onnx safetensors h5 pkl parquet bin"
  ).split(" "),
);

export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).slice(1).toLowerCase());
}

/** Splits text into lines the way an editor numbers them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

const parameters = () =>
  z.object({
    path: z.string().describe("File to read: absolute, ~/..., or relative to the project root."),
    offset: z.int().optional().describe("First line to show, 1-based (default 1)."),
    limit: z
      .int()
      .optional()
      .describe(`Maximum number of lines to show (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
  });

export function createReadFileTool(options: FileToolOptions) {
  return defineTool({
    name: "read_file",
    toolsets: ["file"],
    kind: "read",
    untrustedOutput: "file",
    pathArguments: { paths: ["path"] },
    description:
      "Read a text file with line numbers (`N|text`). Use it before editing a file, and to inspect code or config. " +
      "Reads 500 lines by default; for large files pass offset (1-based first line) and limit to page through. " +
      "Binary files are refused; use search_files to find files.",
    parameters,
    describe: (args, cwd) => ({ title: `Read ${shownPath(args, cwd)}`, locations: pathLocations(args, cwd) }),
    run: (args, ctx) => readFile(args, ctx, options),
  });
}

async function readFile(
  args: ToolArgs<ReturnType<typeof parameters>>,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<ToolResult> {
  const root = ctx.workspace.root;
  const path = resolveToolPath(args.path, root, options.userHome);
  const shown = displayPath(path, root);
  const blocked = readBlockedError(path, { hermesHome: ctx.home, home: options.userHome });
  if (blocked) return toolError(blocked);
  // Before anything touches the path (even a "not found" lists the folder): outside the workspace asks first.
  const refused = await approveRead(ctx, path, { ...options, tool: "read_file", recursive: false });
  if (refused) return toolError(refused);
  const stat = await ctx.workspace.stat(path);
  if (!stat) return toolError(await notFoundMessage(ctx.workspace, path, root));
  if (stat.isDirectory) return toolError(await directoryMessage(ctx.workspace, path, shown));
  const special = specialFileError(stat, shown, "read_file");
  if (special) return toolError(special);
  if (await isBinary(ctx.workspace, path)) {
    return toolError(
      `Cannot display binary file: ${shown} (${stat.size.toLocaleString("en-US")} bytes). read_file shows text only; ` +
        `inspect it with the terminal if needed (e.g. \`file ${shown}\` or \`xxd ${shown} | head\`).`,
    );
  }
  let text: string;
  try {
    text = await ctx.workspace.readTextFile(path);
  } catch (error) {
    return toolError((error as Error).message);
  }
  // 0 means the default, as upstream reads a falsy value.
  const offset = Math.max(1, args.offset || 1);
  const limit = Math.min(MAX_LIMIT, Math.max(1, args.limit || DEFAULT_LIMIT));
  const locations = [{ path, line: offset }];
  const lines = splitLines(text);
  if (lines.length === 0) return { content: `${shown} is empty (0 lines).`, locations };
  if (offset > lines.length) {
    return toolError(
      `${shown} has ${lines.length} lines; offset ${offset} is past the end. Use an offset between 1 and ${lines.length}.`,
    );
  }
  const numbered = numberLines(lines, offset, limit);
  // A page web_extract saved is untrusted web text: it comes back wrapped and scanned, as web_extract's own result.
  if (isSavedWebPage(path, ctx.home)) {
    return {
      content: wrapSavedWebPage(shown, numbered, lines.slice(offset - 1, offset - 1 + limit).join("\n")),
      locations,
    };
  }
  return { content: numbered, locations };
}

/** `N|text` lines from `offset`, ending with a note on how to continue when lines remain. */
function numberLines(lines: readonly string[], offset: number, limit: number): string {
  const out: string[] = [];
  let chars = 0;
  let next = offset;
  const end = Math.min(lines.length, offset - 1 + limit);
  while (next <= end) {
    let line = lines[next - 1];
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)} [... line truncated: ${line.length.toLocaleString("en-US")} chars total]`;
    }
    const numbered = `${next}|${line}`;
    if (out.length > 0 && chars + numbered.length > MAX_OUTPUT_CHARS) break;
    out.push(numbered);
    chars += numbered.length + 1;
    next += 1;
  }
  const remaining = lines.length - (next - 1);
  if (remaining > 0) out.push(`[... ${remaining} more lines; call read_file with offset=${next} to continue]`);
  return out.join("\n");
}

async function isBinary(workspace: Workspace, path: string): Promise<boolean> {
  if (hasBinaryExtension(path)) return true;
  try {
    return (await workspace.readBytes(path, BINARY_SNIFF_BYTES)).includes(0);
  } catch {
    // Editor-backed workspaces may only serve text; then the text itself is the evidence.
    try {
      return (await workspace.readTextFile(path)).slice(0, BINARY_SNIFF_BYTES).includes("\0");
    } catch {
      return false;
    }
  }
}

async function directoryMessage(workspace: Workspace, path: string, shown: string): Promise<string> {
  const entries = await workspace.readDir(path).catch(() => []);
  const names = entries.map((e) => (e.isDirectory ? `${e.name}/` : e.name)).sort();
  const listed = names.slice(0, 20).join(", ");
  const more = names.length > 20 ? ` (+${names.length - 20} more)` : "";
  return (
    `${shown} is a directory, not a file. It has ${names.length} entries${names.length ? `: ${listed}${more}` : ""}. ` +
    `Call read_file on a file inside it, or search_files with target="files" to find one.`
  );
}

/** "File not found: X", with near names from the same folder when there are any ("Did you mean: a, b?"). */
export async function notFoundMessage(workspace: Workspace, path: string, root: string): Promise<string> {
  const shown = displayPath(path, root);
  const folder = dirname(path);
  const entries = await workspace.readDir(folder).catch(() => undefined);
  if (!entries) return `File not found: ${shown} (the folder ${displayPath(folder, root)} does not exist either).`;
  const similar = similarNames(
    basename(path),
    entries.map((e) => e.name),
  ).map((name) => displayPath(join(folder, name), root));
  return similar.length > 0
    ? `File not found: ${shown}. Did you mean: ${similar.join(", ")}?`
    : `File not found: ${shown}`;
}

/** Up to five names close to `wanted`: same name in another case, same stem, a small edit distance, or containment. */
export function similarNames(wanted: string, names: readonly string[]): string[] {
  const target = wanted.toLowerCase();
  const stem = stemOf(target);
  const scored: Array<{ name: string; rank: number; distance: number }> = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const distance = editDistance(lower, target);
    let rank: number;
    if (lower === target) rank = 0;
    else if (stemOf(lower) === stem && stem.length > 0) rank = 1;
    else if (distance <= Math.max(2, Math.floor(target.length / 4))) rank = 2;
    else if (isContained(stem, stemOf(lower))) rank = 3;
    else continue;
    scored.push({ name, rank, distance });
  }
  scored.sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, 5).map((s) => s.name);
}

// Short stems ("a", "io") are contained in too many names to be a useful hint.
function isContained(a: string, b: string): boolean {
  return a.length >= 3 && b.length >= 3 && (a.includes(b) || b.includes(a));
}

function stemOf(name: string): string {
  const dot = name.indexOf(".", 1);
  return dot === -1 ? name : name.slice(0, dot);
}

/** Levenshtein distance, two rows. Names are short, so the quadratic cost does not matter. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

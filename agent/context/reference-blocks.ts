import { execFile } from "node:child_process";
import { open, readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, join, relative } from "node:path";
import { type ContextReference, estimateTokens } from "./reference-parser.js";

const LANGUAGES: Readonly<Record<string, string>> = {
  ".py": "python",
  ".js": "javascript",
  ".ts": "typescript",
  ".tsx": "tsx",
  ".jsx": "jsx",
  ".json": "json",
  ".md": "markdown",
  ".sh": "bash",
  ".yml": "yaml",
  ".yaml": "yaml",
  ".toml": "toml",
};
const MAX_FOLDER_ENTRIES = 200;
const GIT_TIMEOUT_MS = 30_000;

/** A block for the "Attached Context" section, or a warning when the reference could not be expanded. */
export type Expansion = { readonly block: string; readonly tokens: number } | { readonly warning: string };

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

async function isBinaryFile(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, 4096, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** `📄 raw (N tokens)` with the file (or its line range) in a fenced block; binaries are pointed at, not inlined. */
export async function fileBlock(ref: ContextReference, path: string, hardLimit: number): Promise<Expansion> {
  const info = await stat(path);
  if (!info.isFile()) return { warning: `${ref.raw}: path is not a file` };
  if (await isBinaryFile(path)) {
    return {
      block: `📎 ${ref.raw} (application/octet-stream, ${humanSize(info.size)}) — binary file, not inlined as text. It is available on disk at \`${path}\`. Use your tools to work with it (read or convert it, extract its text, or view/render it as needed); do not tell the user the file type is unsupported.`,
      tokens: 0,
    };
  }
  let text = await readFile(path, "utf8");
  if (ref.lineStart !== undefined)
    text = text
      .split("\n")
      .slice(ref.lineStart - 1, ref.lineEnd)
      .join("\n");
  const tokens = estimateTokens(text);
  if (tokens > hardLimit) {
    const block = `📎 ${ref.raw} (text file, approximately ${tokens} tokens, ${humanSize(info.size)}) — too large to inline safely. It is available on disk at \`${path}\`. Use read_file with a narrow line range, search_files, or terminal/code tools to inspect only the relevant parts; do not load the entire file into context.`;
    return { block, tokens: estimateTokens(block) };
  }
  return {
    block: `📄 ${ref.raw} (${tokens} tokens)\n\`\`\`${LANGUAGES[extname(path).toLowerCase()] ?? ""}\n${text}\n\`\`\``,
    tokens,
  };
}

/** `📁 raw (N tokens)` and a listing of up to 200 entries, folders first, dot-entries and __pycache__ skipped. */
export async function folderBlock(ref: ContextReference, path: string, cwd: string): Promise<Expansion> {
  const info = await stat(path);
  if (!info.isDirectory()) return { warning: `${ref.raw}: path is not a folder` };
  const lines = [`${relative(cwd, path) || basename(path)}/`];
  let entries = 0;
  const walk = async (dir: string, depth: number): Promise<boolean> => {
    const children = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => !e.name.startsWith(".") && e.name !== "__pycache__")
      .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
    for (const child of children) {
      if (entries >= MAX_FOLDER_ENTRIES) {
        lines.push(`${"  ".repeat(depth)}- ...`);
        return false;
      }
      entries++;
      const full = join(dir, child.name);
      if (child.isDirectory()) {
        lines.push(`${"  ".repeat(depth)}- ${child.name}/`);
        if (!(await walk(full, depth + 1))) return false;
      } else {
        lines.push(`${"  ".repeat(depth)}- ${child.name} (${await sizeNote(full)})`);
      }
    }
    return true;
  };
  await walk(path, 0);
  const listing = lines.join("\n");
  const tokens = estimateTokens(listing);
  return { block: `📁 ${ref.raw} (${tokens} tokens)\n${listing}`, tokens };
}

async function sizeNote(path: string): Promise<string> {
  try {
    if (await isBinaryFile(path)) return `${(await stat(path)).size} bytes`;
    const text = await readFile(path, "utf8");
    return `${text.split("\n").length} lines`;
  } catch {
    return "unreadable";
  }
}

/** `🧾 git diff|git diff --staged|git log -N -p (N tokens)` with the output in a diff block (30 s timeout). */
export function gitBlock(ref: ContextReference, cwd: string): Promise<Expansion> {
  const count = Math.min(10, Math.max(1, Number.parseInt(ref.target, 10) || 1));
  const args =
    ref.kind === "diff" ? ["diff"] : ref.kind === "staged" ? ["diff", "--staged"] : ["log", `-${count}`, "-p"];
  const label = `git ${args.join(" ")}`;
  return new Promise((resolve) => {
    execFile(
      "git",
      ["--no-pager", "-c", "core.pager=cat", ...args],
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } },
      (error, stdout, stderr) => {
        if (error && (error as { killed?: boolean }).killed)
          return resolve({ warning: `${ref.raw}: git command timed out (30s)` });
        if (error) return resolve({ warning: `${ref.raw}: ${stderr.trim() || "git command failed"}` });
        const tokens = estimateTokens(stdout);
        resolve({ block: `🧾 ${label} (${tokens} tokens)\n\`\`\`diff\n${stdout || "(no output)"}\n\`\`\``, tokens });
      },
    );
  });
}

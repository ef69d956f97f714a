/**
 * House rules that hold for the whole tree. No file over 400 lines: a longer one is split by concern (one module per
 * concern; tests found from the module's name). Counted over the files git tracks, so scratch files do not count; where
 * git is not available (an exported copy), over every such file in the folders.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const ROOT = join(__dirname, "../..");
const FOLDERS = ["agent", "acp-server", "extension", "webview-ui", "test", "bench", "scripts"];
const EXTENSIONS = [".ts", ".mjs", ".cjs"];
const MAX_LINES = 400;

const isSource = (path: string): boolean => EXTENSIONS.some((ext) => path.endsWith(ext));

/** The tracked files under FOLDERS, relative to the root with `/` separators, or undefined without git. */
function trackedFiles(): string[] | undefined {
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--", ...FOLDERS], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split("\0").filter(Boolean);
  } catch {
    return undefined;
  }
}

/** Every file under FOLDERS, leaving out dependencies, build output and dot-folders. */
function walkedFiles(): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules" && entry.name !== "dist") walk(path);
      } else if (entry.isFile()) found.push(relative(ROOT, path).split(sep).join("/"));
    }
  };
  for (const folder of FOLDERS) if (existsSync(join(ROOT, folder))) walk(join(ROOT, folder));
  return found;
}

/** Lines as `wc -l` counts them for a file that ends in a newline. */
function lineCount(path: string): number {
  const text = readFileSync(join(ROOT, path), "utf8");
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("house rules", () => {
  it(`keeps every source, test and script file at ${MAX_LINES} lines or fewer`, () => {
    // A tracked file deleted in the working tree (a split not yet committed) is not there to count.
    const files = (trackedFiles() ?? walkedFiles()).filter((f) => isSource(f) && existsSync(join(ROOT, f))).sort();
    assert.ok(files.length > 100, `only ${files.length} files found under ${FOLDERS.join(", ")}`);
    const over = files.flatMap((f) => {
      const lines = lineCount(f);
      return lines > MAX_LINES ? [`${f} (${lines} lines)`] : [];
    });
    assert.deepEqual(
      over,
      [],
      `${over.length} file(s) over ${MAX_LINES} lines; split each by concern:\n  ${over.join("\n  ")}`,
    );
  });
});

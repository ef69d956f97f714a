/**
 * What scanning tool output costs and how often it cries wolf, run with `npx tsx bench/tool-output-scan.ts [corpus]`
 * (not part of `npm test`).
 *
 * - False positives: every benign context file of `../shared/corpus/benign`, and ordinary source files and READMEs
 *   (this project's own code, less the scanner and its tests, which quote attacks on purpose; and up to 25 files of
 *   each installed package, READMEs included), each scanned as read_file returns it; this repository's `git log` scanned as
 *   a command's output. Prints each flagged file with the pattern and line.
 * - Catch rate: the published payloads of `../shared/corpus/adversarial`, read as files.
 * - Cost: the median time of scanToolOutput on 20 KB of source as read_file numbers it, on 20 KB of command output,
 *   and on 20 KB of MCP text. Goal: at most ~1 ms per 20 KB.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, resolve } from "node:path";
import { type OutputFinding, scanToolOutput, type UntrustedOutputKind } from "../agent/security/tool-output-scan.js";
import { medianMs } from "./median-time.js";

const ROOT = resolve(__dirname, "..");
const SOURCE_EXTENSIONS = new Set([
  ".ts",
  ".js",
  ".mjs",
  ".cjs",
  ".md",
  ".json",
  ".yaml",
  ".yml",
  ".py",
  ".sh",
  ".css",
  ".html",
]);
/** Files that quote attacks on purpose (the scanner, its tests, this bench): reading them is meant to be flagged. */
const QUOTES_ATTACKS = [
  /^agent\/security\//,
  /^test\/unit\/threat-scanner/,
  /^test\/unit\/(web-tools|web-hostile-input|smart-approval|memory-tool|skills|project-context|system-prompt|subdirectory-hints)/,
  /^test\/acp\/(untrusted-output|web|hints|project-context|skills|memory)/,
  /^bench\//,
  /^docs?\//,
];
const MAX_FILE_CHARS = 200_000;
const MAX_PACKAGE_FILES = 6_000;
/** A few files from each installed package, so many authors' code and READMEs are read, not one big package's. */
const FILES_PER_PACKAGE = 25;

/** read_file's numbered form, so the bench reads what the runner scans. */
function asReadFile(text: string): string {
  return text
    .split("\n")
    .map((line, i) => `${i + 1}|${line}`)
    .join("\n");
}

/** Every installed package's folder (`name` and `@scope/name`), sorted. */
function packageDirs(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules)
    .sort()
    .flatMap((name) => {
      if (name.startsWith(".")) return [];
      const dir = join(nodeModules, name);
      return name.startsWith("@")
        ? readdirSync(dir)
            .sort()
            .map((inner) => join(dir, inner))
        : [dir];
    });
}

function walk(dir: string, out: string[], limit: number, skip: (path: string) => boolean): void {
  if (out.length >= limit || !existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    if (out.length >= limit) return;
    const path = join(dir, name);
    if (skip(path)) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) walk(path, out, limit, skip);
    else if (stat.isFile() && SOURCE_EXTENSIONS.has(extname(name)) && stat.size <= MAX_FILE_CHARS) out.push(path);
  }
}

interface Flagged {
  readonly name: string;
  readonly findings: readonly OutputFinding[];
}

function scanFiles(paths: readonly string[], base: string): { scanned: number; flagged: Flagged[] } {
  const flagged: Flagged[] = [];
  for (const path of paths) {
    const findings = scanToolOutput(asReadFile(readFileSync(path, "utf8").replace(/^\ufeff/, "")), "file");
    if (findings.length > 0) flagged.push({ name: relative(base, path), findings });
  }
  return { scanned: paths.length, flagged };
}

function corpusFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n !== "SOURCES.tsv" && n !== "README.md")
    .sort()
    .map((n) => join(dir, n));
}

function describe(findings: readonly OutputFinding[]): string {
  return findings.map((f) => `${f.id} at ${f.where}${f.snippet ? ` «${f.snippet}»` : ""}`).join("; ");
}

/** `count` pieces of ~20,000 characters cut from `text` at line ends. */
function slices(text: string, size: number, count: number): string[] {
  const out: string[] = [];
  for (let start = 0; out.length < count && start < text.length; ) {
    const end = text.lastIndexOf("\n", start + size);
    const cut = end > start ? end : Math.min(text.length, start + size);
    out.push(text.slice(start, cut));
    start = cut + 1;
  }
  return out;
}

function main(): void {
  const corpus = resolve(process.argv[2] ?? join(ROOT, "../shared/corpus"));
  const out: string[] = ["Tool-output scan (scanToolOutput: scope context, whole text, look-alikes folded)", ""];

  const report = (title: string, result: { scanned: number; flagged: Flagged[] }) => {
    out.push(
      `${title}: ${result.scanned} scanned, ${result.flagged.length} flagged (${((100 * result.flagged.length) / Math.max(1, result.scanned)).toFixed(2)} %)`,
    );
    for (const f of result.flagged) out.push(`  ! ${f.name}: ${describe(f.findings)}`);
  };
  report("Benign context files (corpus)", scanFiles(corpusFiles(join(corpus, "benign")), corpus));
  const own: string[] = [];
  walk(
    ROOT,
    own,
    10_000,
    (p) =>
      /node_modules|\/\.git$|\/dist$|\/test-results$|\/\.vscode-test/.test(p) ||
      QUOTES_ATTACKS.some((r) => r.test(relative(ROOT, p))),
  );
  report("This project's source, docs and tests (less the scanner's own)", scanFiles(own, ROOT));
  const packages: string[] = [];
  for (const dir of packageDirs(join(ROOT, "node_modules"))) {
    const files: string[] = [];
    walk(dir, files, FILES_PER_PACKAGE, (p) => p.endsWith("/node_modules"));
    packages.push(...files);
    if (packages.length >= MAX_PACKAGE_FILES) break;
  }
  report("Installed packages' sources and READMEs", scanFiles(packages, join(ROOT, "node_modules")));

  const log = execFileSync("git", ["log", "-n", "400", "--stat"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const logFindings = slices(log, 20_000, 1_000).flatMap((s) =>
    scanToolOutput(JSON.stringify({ output: s, exit_code: 0, error: null }), "command"),
  );
  out.push(
    `git log -n 400 --stat as command output (${log.length.toLocaleString("en-US")} chars): ${logFindings.length} findings${logFindings.length ? `: ${describe(logFindings)}` : ""}`,
  );

  const adversarial = corpusFiles(join(corpus, "adversarial"));
  const caught = scanFiles(adversarial, corpus);
  out.push("", `Published payloads read as files: ${caught.flagged.length}/${caught.scanned} flagged`);
  for (const f of caught.flagged) out.push(`  ✓ ${f.name}: ${f.findings.map((x) => `${x.id}@${x.where}`).join(", ")}`);

  // Cost: real text, 20 KB at a time.
  const source = own.map((p) => readFileSync(p, "utf8")).join("\n");
  const cases: Array<[string, UntrustedOutputKind, string[]]> = [
    ["read_file of source (numbered)", "file", slices(source, 20_000, 40).map(asReadFile)],
    [
      "terminal output (JSON)",
      "command",
      slices(log, 20_000, 40).map((s) => JSON.stringify({ output: s, exit_code: 0, error: null })),
    ],
    ["MCP text", "mcp", slices(source, 20_000, 40)],
  ];
  out.push("", "Cost per ~20 KB (median over the slices, each timed 21 times):");
  for (const [label, kind, texts] of cases) {
    const medians = texts.map((t) => medianMs(() => scanToolOutput(t, kind), 21)).sort((a, b) => a - b);
    const chars = texts.reduce((n, t) => n + t.length, 0) / texts.length;
    const median = medians[Math.floor(medians.length / 2)]!;
    const worst = medians.at(-1)!;
    out.push(
      `  ${label}: median ${median.toFixed(3)} ms, slowest slice ${worst.toFixed(3)} ms (${texts.length} slices, ~${Math.round(chars).toLocaleString("en-US")} chars each)`,
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

main();

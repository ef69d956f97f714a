import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { readBlockedError } from "../security/file-safety.js";
import { scanWhole } from "../security/threat-scanner.js";
import { realpathOr, statOr } from "./fs-probe.js";
import { type PathArguments, pathCandidates, USUAL_PATH_ARGUMENTS } from "./hint-candidates.js";
import { pyStrip, withoutLeadingBom } from "./python-text.js";
import { truncateContent } from "./truncation.js";

/** Per directory, the first non-empty of these is its hint ([LATER] list, with AGENTS.override.md). */
export const HINT_FILENAMES = [
  "AGENTS.override.md",
  "AGENTS.md",
  "agents.md",
  "CLAUDE.md",
  "claude.md",
  ".cursorrules",
] as const;
const MAX_ANCESTOR_WALK = 5;
const MAX_HINT_CHARS = 32_000;

// Upstream's SEARCH_PRUNE_DIR_NAMES: no hint is looked for in or below these (dependencies, build output, caches).
const PRUNED = new Set(
  (
    ".git .hg .svn node_modules venv .venv site-packages dist-packages vendor third_party build dist target out coverage " +
    ".next .turbo .parcel-cache .nuxt .svelte-kit .archive __pycache__ .cache .Trash .tox .nox .mypy_cache .pytest_cache " +
    ".ruff_cache .npm .yarn .pnpm-store .gradle .m2 .nuget backups backup .backups"
  ).split(" "),
);

/** Why a path reached the tracker: the context inspector tells the user which hint came in through what. */
export type HintOrigin = "attachment" | "opened file" | `tool call (${string})`;

/** One hint file that went into the conversation (its content, or a [BLOCKED] notice in its place). */
export interface InjectedHint {
  /** The hint file, relative to the workspace. */
  readonly file: string;
  readonly origin: HintOrigin;
  readonly blocked: boolean;
}

/** What a tracker has already injected, so a reloaded session does not inject it again. */
export interface HintMemory {
  readonly loadedDirs: readonly string[];
  readonly digests: readonly string[];
  readonly injected?: readonly InjectedHint[];
}

/**
 * Progressive subdirectory hints (hermes-behaviour.md §4), one tracker per session, anchored at the session's cwd
 * (upstream anchors at the process cwd: wrong for a server with many workspaces). As tool calls and the editor
 * point into subfolders, their AGENTS.md / CLAUDE.md / .cursorrules are found and handed back for injection into
 * the tool result or the user turn, never the system prompt. Each lookup costs O(path depth) stat calls.
 */
export class SubdirectoryHintTracker {
  readonly workingDir: string;
  private readonly loadedDirs = new Set<string>();
  private readonly digests = new Set<string>();
  private readonly injectedHints: InjectedHint[] = [];
  private readonly enabled: boolean;
  /** The cwd's own hint has been digested (on first need, not in session/new: it reads and hashes the file). */
  private ownDigested = false;

  constructor(
    workingDir: string,
    private readonly options: { readonly userHome: string; readonly hermesHome: string; readonly memory?: HintMemory },
  ) {
    this.workingDir = realpathOr(resolve(workingDir));
    this.enabled = !isTooBroad(this.workingDir, options.userHome);
    this.loadedDirs.add(this.workingDir);
    for (const dir of options.memory?.loadedDirs ?? []) this.loadedDirs.add(dir);
    for (const d of options.memory?.digests ?? []) this.digests.add(d);
    this.injectedHints.push(...(options.memory?.injected ?? []));
  }

  /** The hint files injected so far, oldest first, and what brought each in. */
  get injected(): readonly InjectedHint[] {
    return this.injectedHints;
  }

  /**
   * Hints for the paths a finished tool call touched, as upstream appends them to the tool result. `pathArguments`
   * are the tool's (tools/registry.ts pathArgumentsOf); without them the usual three path arguments are read.
   */
  checkToolCall(
    toolName: string,
    args: Readonly<Record<string, unknown>> | undefined,
    pathArguments: PathArguments = USUAL_PATH_ARGUMENTS,
  ): string | undefined {
    return this.checkPaths(pathCandidates(args, pathArguments), `tool call (${toolName})`);
  }

  /**
   * Hints for raw paths (tool arguments, files the editor names), nearest directory first; undefined if none.
   * `origin` defaults to the files the user's prompt names.
   */
  checkPaths(rawPaths: readonly string[], origin: HintOrigin = "attachment"): string | undefined {
    if (!this.enabled) return undefined;
    const dirs: string[] = [];
    for (const raw of rawPaths) for (const dir of this.newDirectoriesFor(raw)) if (!dirs.includes(dir)) dirs.push(dir);
    const sections: string[] = [];
    for (const dir of dirs) {
      const section = this.loadDirectory(dir, origin);
      if (section) sections.push(section);
    }
    return sections.length > 0 ? `\n\n${sections.join("\n\n")}` : undefined;
  }

  /**
   * What to persist. The cwd's own digest is left out until a hint is loaded (loadDirectory takes it first, in a
   * restored tracker too): taking it here read the file and checked it against the deny rules inside every session's
   * first turn, ~5 ms, for a digest no turn had needed yet.
   */
  remember(): HintMemory {
    return { loadedDirs: [...this.loadedDirs], digests: [...this.digests], injected: [...this.injectedHints] };
  }

  /** The directory a path names (its parent when it is or looks like a file) and up to 4 ancestors not yet loaded. */
  private newDirectoriesFor(raw: string): string[] {
    let path = raw.startsWith("~") ? join(this.options.userHome, raw.slice(1)) : raw;
    if (!isAbsolute(path)) path = join(this.workingDir, path);
    path = realpathOr(resolve(path));
    const info = statOr(path);
    let dir = info?.isDirectory() ? path : info?.isFile() || extname(path) ? dirname(path) : path;
    const found: string[] = [];
    for (let level = 0; level < MAX_ANCESTOR_WALK; level++) {
      if (this.loadedDirs.has(dir)) break;
      if (this.isCandidateDir(dir)) found.push(dir);
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return found;
  }

  private isCandidateDir(dir: string): boolean {
    const rel = relative(this.workingDir, dir);
    if (!rel || rel.startsWith("..") || isAbsolute(rel)) return false;
    if (rel.split(sep).some((segment) => PRUNED.has(segment))) return false;
    return statOr(dir)?.isDirectory() === true;
  }

  /** The cwd's own hint is already in the system prompt: identical copies below must not come in again. */
  private digestOwnHint(): void {
    if (this.ownDigested) return;
    this.ownDigested = true;
    const own = this.firstHint(this.workingDir);
    if (own) this.digests.add(digest(own.content));
  }

  private loadDirectory(dir: string, origin: HintOrigin): string | undefined {
    this.digestOwnHint();
    this.loadedDirs.add(dir);
    const hint = this.firstHint(dir);
    if (!hint) return undefined;
    const key = digest(hint.content);
    if (this.digests.has(key)) return undefined;
    this.digests.add(key);
    const shown = this.displayPath(hint.path);
    let content = hint.content;
    const threats = scanWhole(content.startsWith("\ufeff") ? content.slice(1) : content, "context");
    this.injectedHints.push({ file: shown, origin, blocked: threats.length > 0 });
    if (threats.length > 0) {
      content = `[BLOCKED: ${hint.name} contained potential prompt injection (${threats.map((t) => t.id).join(", ")}). Content not loaded.]`;
    } else {
      content = truncateContent(content, hint.name, MAX_HINT_CHARS, shown, true).text;
    }
    return `[Subdirectory context discovered: ${shown}]\n${content}`;
  }

  /** The first non-empty hint file of a directory. A symlinked one must resolve inside the workspace and be readable. */
  private firstHint(dir: string): { name: string; path: string; content: string } | undefined {
    for (const name of HINT_FILENAMES) {
      const path = join(dir, name);
      const info = statOr(path);
      if (!info?.isFile()) continue;
      const target = realpathOr(path);
      const rel = relative(this.workingDir, target);
      if (rel.startsWith("..") || isAbsolute(rel)) continue;
      if (readBlockedError(target, { hermesHome: this.options.hermesHome, home: this.options.userHome })) continue;
      let content: string;
      try {
        content = pyStrip(withoutLeadingBom(readFileSync(target, "utf8")));
      } catch {
        continue;
      }
      if (content) return { name, path, content };
    }
    return undefined;
  }

  private displayPath(path: string): string {
    const rel = relative(this.workingDir, path);
    if (rel && !rel.startsWith("..") && !isAbsolute(rel)) return rel;
    const fromHome = relative(this.options.userHome, path);
    if (fromHome && !fromHome.startsWith("..") && !isAbsolute(fromHome)) return `~/${fromHome}`;
    return path;
  }
}

/**
 * [LATER] home guard: a tracker anchored at a home folder would pick up every project below it, so it stays off
 * there: the user's home, /, /home, /root, /workspace, and any /home/<name>. (Upstream also disables direct children
 * of /root and /workspace; in an editor those are projects, e.g. /workspace/app in a dev container, so we keep them.)
 */
function isTooBroad(dir: string, userHome: string): boolean {
  const broad = new Set([userHome, "/", "/home", "/root", "/workspace"]);
  if (broad.has(dir)) return true;
  if (dirname(dir) === "/home") return true;
  return dir.split(sep).some((s) => s === ".home" || s === "host-home" || s === "host_home");
}

function digest(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

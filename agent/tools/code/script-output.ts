import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptExit } from "./script-process.js";

/** Upstream's MAX_STDOUT_BYTES: what the model sees of stdout, head and tail. */
export const MAX_STDOUT_BYTES = 50_000;
/** Upstream's split of the cap: 40% from the start, 60% from the end (a script's result is usually printed last). */
const HEAD_SHARE = 0.4;

/** HERMES_HOME/cache/exec: full stdout of scripts the model saw only in part (upstream's place for them). */
export function spillDir(home: string): string {
  return join(home, "cache", "exec");
}

export interface ScriptRun {
  readonly exit: ScriptExit;
  readonly toolCallsMade: number;
  readonly durationSeconds: number;
  readonly timeoutSeconds: number;
  readonly home: string;
  /** The names of the tools the script could import, for the failure hints. */
  readonly toolNames: readonly string[];
}

/**
 * The JSON the model gets, in upstream's shape and key order: status (success, error, timeout, interrupted), the
 * output, the tool calls made, the duration, then the stdout metadata (byte counts ride beside the textual marker,
 * because a client layer may re-cut the text), a warning naming the saved file when stdout was cut, and a hint for
 * the failures upstream saw most.
 */
export function scriptResultJson(run: ScriptRun): { json: string; failed: boolean } {
  const { exit } = run;
  const { text, metadata } = capStdout(exit, run.home);
  let output = text;
  const result: Record<string, unknown> = { status: "success" };
  let error: string | undefined;
  if (exit.spawnError) {
    result.status = "error";
    error = `Could not start the Python interpreter: ${exit.spawnError}`;
  } else if (exit.stoppedBy === "timeout") {
    result.status = "timeout";
    error = `Script timed out after ${run.timeoutSeconds}s and was killed.`;
    // In the output too: an empty result reads to a model as if nothing happened.
    output = output ? `${output}\n\n⏰ ${error}` : `⏰ ${error}`;
  } else if (exit.stoppedBy === "cancel") {
    result.status = "interrupted";
    output = output ? `${output}\n[execution interrupted]` : "[execution interrupted]";
  } else if (exit.exitCode !== 0) {
    result.status = "error";
    error = `Script exited with code ${exit.exitCode ?? "unknown (killed by a signal)"}`;
  }
  if (exit.stderr.trim() && result.status !== "success") output = `${output}\n--- stderr ---\n${exit.stderr}`;
  result.output = output;
  result.tool_calls_made = run.toolCallsMade;
  result.duration_seconds = Math.round(run.durationSeconds * 100) / 100;
  if (error) result.error = error;
  Object.assign(result, metadata);
  const hint = result.status === "error" ? failureHint(exit.stderr, run.toolNames) : undefined;
  if (hint) result.hint = hint;
  return { json: JSON.stringify(result), failed: result.status !== "success" };
}

function capStdout(exit: ScriptExit, home: string): { text: string; metadata: Record<string, unknown> } {
  const bytes = Buffer.from(exit.stdout, "utf8");
  const total = Math.max(exit.stdoutBytes, bytes.length);
  const captured = Math.min(total, MAX_STDOUT_BYTES);
  const metadata: Record<string, unknown> = {
    stdout_truncated: total > captured,
    stdout_bytes_captured: captured,
    stdout_bytes_total: total,
    stdout_bytes_omitted: total - captured,
  };
  if (total <= MAX_STDOUT_BYTES) return { text: exit.stdout, metadata };
  const head = Math.floor(MAX_STDOUT_BYTES * HEAD_SHARE);
  const tail = MAX_STDOUT_BYTES - head;
  const omitted = total - captured;
  const text =
    bytes.subarray(0, head).toString("utf8") +
    `\n\n... [OUTPUT TRUNCATED - ${omitted.toLocaleString("en-US")} bytes omitted out of ${total.toLocaleString("en-US")} total] ...\n\n` +
    bytes.subarray(bytes.length - tail).toString("utf8");
  metadata.warning =
    "execute_code stdout was truncated; the script did run, but only the captured head/tail output is included. Re-run only with narrower output if the omitted data is required.";
  const saved = spill(exit, home);
  if (saved) {
    metadata.stdout_spill_path = saved;
    metadata.warning = `execute_code stdout was truncated (head/tail shown); the script did run. FULL output saved to ${saved} — page it with read_file(path="${saved}", offset=...) instead of re-running.`;
  }
  return { text, metadata };
}

/** Best effort, keyed by the content's digest so identical reruns share a file; undefined when it cannot be written. */
function spill(exit: ScriptExit, home: string): string | undefined {
  try {
    const kept =
      exit.stdoutBytes > Buffer.byteLength(exit.stdout)
        ? `${exit.stdout}\n\n[... spill capped at ${Buffer.byteLength(exit.stdout).toLocaleString("en-US")} bytes ...]`
        : exit.stdout;
    const dir = spillDir(home);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `stdout-${createHash("sha256").update(kept).digest("hex").slice(0, 12)}.txt`);
    writeFileSync(path, kept, { mode: 0o600 });
    pruneSpills(dir, path);
    return path;
  } catch {
    return undefined;
  }
}

/** Saved outputs kept: the newest few (up to 5 MB each), so the cache does not grow with every long script. */
const KEPT_SPILLS = 20;

function pruneSpills(dir: string, keep: string): void {
  const spills = readdirSync(dir)
    .filter((name) => name.startsWith("stdout-") && name.endsWith(".txt"))
    .map((name) => join(dir, name))
    .filter((path) => path !== keep)
    .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of spills.slice(KEPT_SPILLS - 1)) rmSync(old.path, { force: true });
}

/** Upstream's most common script failures, each with the one thing to do about it (first match wins). */
function failureHint(stderr: string, toolNames: readonly string[]): string | undefined {
  const window = stderr.slice(0, 4000);
  const missing = /cannot import name '(\w+)' from 'hermes_tools'/.exec(window);
  if (missing) {
    if (["json_parse", "shell_quote", "retry"].includes(missing[1]!))
      return `Import helpers with \`from hermes_tools import ${missing[1]}\`. If that import failed, another hermes_tools may be first on sys.path.`;
    return `'${missing[1]}' is not available inside the execute_code sandbox. Importable tools here: ${[...toolNames].sort().join(", ")}. For anything else, use the normal tool call instead of execute_code.`;
  }
  const helper = /NameError: name '(json_parse|shell_quote|retry)' is not defined/.exec(window);
  if (helper) return `Import ${helper[1]} before calling it: from hermes_tools import ${helper[1]}`;
  const module = /ModuleNotFoundError: No module named '([\w.]+)'/.exec(window);
  if (module)
    return `'${module[1]}' is not installed in the sandbox interpreter. Use Python stdlib inside execute_code, or run the code via terminal() with the project venv's python instead.`;
  if (/TypeError: string indices must be integers|AttributeError: 'str' object has no attribute 'get'/.test(window))
    return "Tool functions in the sandbox return DICTS (already parsed) — do not json.loads() them or index them like strings. Example: read_file(path)['content'].";
  return undefined;
}

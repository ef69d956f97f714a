import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCodeExecutionSettings } from "../../config/code-execution-settings.js";
import { forgetSandboxIfSetUpFailed } from "../../sandbox/sandbox-probe-cache.js";
import { withoutSecrets } from "../../sandbox/secret-environment.js";
import { containmentFor } from "../terminal/command-containment.js";
import { loadCommandRules } from "../terminal/load-command-rules.js";
import type { FileEdit, FileLocation, ToolContext, ToolResult } from "../tool.js";
import { findPython } from "./find-python.js";
import { hermesToolsModule, SCRIPT_TOOL_STUBS } from "./hermes-tools-module.js";
import { ScriptRpcServer } from "./rpc-server.js";
import { scriptResultJson, spillDir } from "./script-output.js";
import { runScriptProcess } from "./script-process.js";
import { scriptResult } from "./script-results.js";

/** Unix socket paths are capped (108 bytes on Linux, 104 on macOS); a deep HERMES_HOME falls back to the temp folder. */
const MAX_SOCKET_PATH = 100;

/** Upstream's `_error_result`: a refusal before the script ran, in the same JSON shape as a run. */
function refusal(error: string): ToolResult {
  return {
    content: JSON.stringify({ status: "error", error, tool_calls_made: 0, duration_seconds: 0 }),
    isError: true,
  };
}

/**
 * One execute_code call: the script runs once, in the session's containment, with a private folder holding the
 * script, the hermes_tools module and the socket its calls come back through; only its stdout returns.
 *
 * Whether the script itself asks: the gate judges it as the command line `python3 -c '<script>'`, sandboxed or not,
 * exactly as it would judge that line in the terminal: inline script execution is code the gate cannot read, so it
 * asks in manual mode (upstream's one-shot approval of the whole script on its local backend; "allow for this
 * session" covers later scripts), goes to the judge in smart mode, and passes in off/yolo. Inside the sandbox the
 * answer is survivable (the OS holds the script as any command), and read-only mode lets it run because the sandbox
 * makes the disk read-only; outside one, read-only mode refuses it. Each hermes_tools call then meets the gate, the
 * edit review and the checkpoint like a direct call, and the workspace is snapshotted before the script starts.
 * (Reviewed choice: not asking inside the sandbox let a model run unseen code that writes the workspace and reaches
 * the network in manual mode, which the terminal would have asked about.)
 */
export async function runExecuteCode(code: string, label: string, ctx: ToolContext): Promise<ToolResult> {
  if (!code.trim())
    return refusal(
      "No code provided. execute_code requires a non-empty 'code' parameter containing Python source. To run shell commands, use terminal(command=...) instead.",
    );
  const callTool = ctx.callTool;
  if (!callTool) return refusal("execute_code cannot run inside another tool's call.");
  let settings: ReturnType<typeof loadCodeExecutionSettings>;
  try {
    settings = loadCodeExecutionSettings(ctx.home, process.env);
  } catch (error) {
    return refusal(`Cannot read the code_execution settings: ${(error as Error).message}`);
  }
  const python = findPython({ configured: settings.python, env: process.env });
  if (!python.ok) return refusal(python.error);
  const cwd = ctx.workspace.root;
  const containment = await containmentFor(ctx, cwd);
  const { gateCommand } = await loadCommandRules();
  const gate = await gateCommand(`python3 -c ${shellQuote(code)}`, ctx, { cwd });
  if (!gate.allowed) return refusal(gate.message);
  if (ctx.state.mode !== "read_only")
    await ctx.state.checkpoint?.beforeChange(`before execute_code: ${label.slice(0, 60)}`);

  const unreachable = runDirProblem(ctx.home, ctx.state.mode === "read_only" && containment.launcher !== undefined);
  if (unreachable) return refusal(unreachable);
  const runDir = makeRunDir(ctx.home);
  const edits = new EditLog();
  const started = Date.now();
  const toolNames = Object.keys(SCRIPT_TOOL_STUBS);
  let server: ScriptRpcServer | undefined;
  // The calls' own signal: a call still running when the script ends (a timeout, an exit) is aborted, so nothing it
  // asked lands after execute_code has reported; the turn's cancel reaches it too.
  const calls = new AbortController();
  const abortCalls = () => calls.abort();
  ctx.signal.addEventListener("abort", abortCalls, { once: true });
  if (ctx.signal.aborted) abortCalls();
  const inFlight = new Set<Promise<unknown>>();
  try {
    writeFileSync(join(runDir, "hermes_tools.py"), hermesToolsModule(toolNames), { mode: 0o600 });
    writeFileSync(join(runDir, "script.py"), code, { mode: 0o600 });
    const socket = join(runDir, "rpc.sock");
    const token = randomBytes(32).toString("base64url");
    server = await ScriptRpcServer.listen(socket, {
      token,
      allowedTools: new Set(toolNames),
      maxToolCalls: settings.maxToolCalls,
      dispatch: async (tool, args) => {
        ctx.progress(`→ ${tool}(${preview(args)})\n`);
        const call = callTool(tool, args, calls.signal);
        inFlight.add(call);
        const result = await call.finally(() => inFlight.delete(call));
        edits.add(result);
        return JSON.stringify(scriptResult(tool, args, result));
      },
    });
    const env = {
      ...withoutSecrets(process.env, ctx.state.settings.envPassthrough),
      PYTHONDONTWRITEBYTECODE: "1",
      PYTHONIOENCODING: "utf-8",
      PYTHONUTF8: "1",
      PYTHONPATH: [runDir, process.env.PYTHONPATH].filter(Boolean).join(":"),
      HERMES_RPC_SOCKET: socket,
      HERMES_RPC_TOKEN: token,
    };
    const exit = await runScriptProcess({
      argv: [...(containment.launcher ?? []), python.path, "-B", join(runDir, "script.py")],
      cwd,
      env,
      timeoutSeconds: settings.timeoutSeconds,
      signal: ctx.signal,
    });
    abortCalls();
    await Promise.allSettled([...inFlight]);
    if (containment.launcher) forgetSandboxIfSetUpFailed(exit.stderr, exit.exitCode);
    const { json, failed } = scriptResultJson({
      exit,
      toolCallsMade: server.toolCallsMade,
      durationSeconds: (Date.now() - started) / 1000,
      timeoutSeconds: settings.timeoutSeconds,
      home: ctx.home,
      toolNames,
    });
    return { content: json, isError: failed, ...edits.carried() };
  } finally {
    ctx.signal.removeEventListener("abort", abortCalls);
    abortCalls();
    await server?.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** The socket path a run folder under HERMES_HOME would have (mkdtemp adds six characters to `run-`). */
const socketUnder = (home: string): string => join(spillDir(home), "run-XXXXXX", "rpc.sock");

/**
 * Why a script could not reach its tools, or undefined: when HERMES_HOME is too deep for a socket path the run folder
 * falls back to the temp folder, which a read-only session's sandbox replaces with a private one.
 */
export function runDirProblem(home: string, privateTmp: boolean): string | undefined {
  if (!privateTmp || socketUnder(home).length <= MAX_SOCKET_PATH) return undefined;
  return `execute_code cannot run in read-only mode with this HERMES_HOME: its path (${home}) is too long for the socket the script's tools talk through (Unix sockets allow about ${MAX_SOCKET_PATH} characters), and read-only mode hides the temporary folder used instead. Use a shorter HERMES_HOME, or leave read-only mode.`;
}

/**
 * A folder only this user can enter, under HERMES_HOME/cache/exec: the sandbox shows HERMES_HOME (read-only) in every
 * mode, while read-only mode gives commands a private /tmp where a folder of ours would not be seen. A Unix socket
 * can be connected to on a read-only mount, so the script reaches the server from either.
 */
function makeRunDir(home: string): string {
  const base = spillDir(home);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(
    socketUnder(home).length > MAX_SOCKET_PATH ? join(tmpdir(), "hermes-exec-") : join(base, "run-"),
  );
  chmodSync(dir, 0o700);
  return dir;
}

/**
 * The files the script's calls changed, for the card: one diff per file from its text before the first change to
 * its text after the last (so a file patched three times reads as one change), and each file once as a location.
 */
class EditLog {
  private readonly edits = new Map<string, FileEdit>();
  private readonly locations = new Map<string, FileLocation>();

  add(result: ToolResult): void {
    for (const edit of result.edits ?? []) {
      const first = this.edits.get(edit.path);
      this.edits.set(edit.path, first ? { ...edit, oldText: first.oldText } : edit);
    }
    for (const location of result.locations ?? [])
      if (!this.locations.has(location.path)) this.locations.set(location.path, location);
  }

  carried(): Pick<ToolResult, "edits" | "locations"> {
    return {
      ...(this.edits.size > 0 ? { edits: [...this.edits.values()] } : {}),
      ...(this.locations.size > 0 ? { locations: [...this.locations.values()] } : {}),
    };
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The call's arguments in a few words for the card (upstream logs `str(args)[:80]`). */
function preview(args: Readonly<Record<string, unknown>>): string {
  const text = Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(", ");
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

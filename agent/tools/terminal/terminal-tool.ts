import { isAbsolute, resolve } from "node:path";
import { gateCommand } from "../safety/command-gate.js";
import { toolError, type Tool, type ToolContext, type ToolResult } from "../tool.js";
import { OutputCollector } from "./terminal-text.js";

const MAX_TIMEOUT_SECONDS = 3600;

/** Upstream's terminal result shape: JSON with the output, the exit code and an error (or null). */
function terminalResult(output: string, exitCode: number | null, error: string | null): ToolResult {
  return { content: JSON.stringify({ output, exit_code: exitCode, error }), isError: error !== null || (exitCode !== null && exitCode !== 0) };
}

export const terminalTool: Tool = {
  name: "terminal",
  description:
    "Run a shell command (bash) in the project and return its output and exit code. Use for builds, tests, git, " +
    "package managers and anything a developer would type. Output is captured without colours. Long-running " +
    "servers or watchers: set background=true and manage them with the process tool. Dangerous commands ask the " +
    "user first; some are never allowed.",
  parameters: {
    type: "object",
    properties: {
      command: { type: "string", description: "The command line to run." },
      workdir: { type: "string", description: "Folder to run in (default: the project root). Relative paths resolve against the project root." },
      timeout: { type: "integer", description: "Seconds before a foreground command is stopped (default from config, 180)." },
      background: { type: "boolean", description: "Start and return at once with a process id (for servers, watchers, long jobs)." },
    },
    required: ["command"],
  },
  async run(args, ctx) {
    const command = String(args.command).trim();
    if (!command) return toolError("The command is empty.");
    const cwd = args.workdir ? resolve(ctx.workspace.root, String(args.workdir)) : ctx.workspace.root;
    const where = await ctx.workspace.stat(cwd);
    if (!where?.isDirectory) return toolError(`workdir ${isAbsolute(String(args.workdir)) ? "" : `${cwd} `}does not exist or is not a folder.`);
    const gate = await gateCommand(command, ctx);
    if (!gate.allowed) return terminalResult("", null, gate.message);
    if (args.background === true) {
      if (ctx.state.mode === "read_only") return terminalResult("", null, "BLOCKED: background processes are not started in read-only mode.");
      return startBackground(command, cwd, ctx);
    }
    const seconds = Math.min(MAX_TIMEOUT_SECONDS, Number(args.timeout ?? ctx.state.settings.terminalTimeoutSeconds));
    const result = await runForeground(command, cwd, seconds, ctx);
    return gate.note ? { ...result, content: `${result.content}\n${gate.note}` } : result;
  },
};

async function runForeground(command: string, cwd: string, seconds: number, ctx: ToolContext): Promise<ToolResult> {
  const handle = ctx.workspace.runCommand({ command, cwd, toolCallId: ctx.toolCallId });
  const output = new OutputCollector();
  handle.onOutput((chunk) => {
    output.add(chunk);
    ctx.progress(chunk);
  });
  let stoppedBy: "timeout" | "cancel" | undefined;
  const stop = (reason: "timeout" | "cancel") => {
    stoppedBy ??= reason;
    handle.kill();
  };
  const onAbort = () => stop("cancel");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  if (ctx.signal.aborted) stop("cancel");
  const timer = setTimeout(() => stop("timeout"), seconds * 1000);
  try {
    const exit = await handle.exited;
    if (stoppedBy === "cancel") return terminalResult(output.text(), exit.exitCode, "Command cancelled by the user; its process group was killed.");
    if (stoppedBy === "timeout") {
      return terminalResult(output.text(), exit.exitCode, `Command timed out after ${seconds}s and was killed. For long-running commands use background=true, or pass a larger timeout.`);
    }
    return terminalResult(output.text(), exit.exitCode ?? (exit.signal ? 128 : null), exit.signal ? `Killed by signal ${exit.signal}` : null);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

function startBackground(command: string, cwd: string, ctx: ToolContext): ToolResult {
  const handle = ctx.workspace.runCommand({ command, cwd, stdin: true });
  const entry = ctx.state.processes.add(command, cwd, handle);
  return {
    content: JSON.stringify({
      session_id: entry.id,
      pid: handle.pid ?? null,
      status: "running",
      note: "Started in the background. Use process(action='poll'|'log'|'wait'|'kill'|'write', session_id) to manage it.",
    }),
  };
}

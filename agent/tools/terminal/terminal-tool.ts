import { isAbsolute, resolve } from "node:path";
import * as z from "zod/v4";
import { forgetSandboxIfSetUpFailed } from "../../sandbox/sandbox-probe-cache.js";
import { failedOnSandboxWall } from "../../sandbox/sandbox-walls.js";
import type { CommandSpec } from "../../workspace/workspace.js";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import { terminalReason } from "../turn-checkpoint.js";
import { containmentFor } from "./command-containment.js";
import { loadCommandRules } from "./load-command-rules.js";
import { OutputCollector } from "./terminal-text.js";

const MAX_TIMEOUT_SECONDS = 3600;

/** Upstream's terminal result shape: JSON with the output, the exit code and an error (or null). */
function terminalResult(output: string, exitCode: number | null, error: string | null): ToolResult {
  return {
    content: JSON.stringify({ output, exit_code: exitCode, error }),
    isError: error !== null || (exitCode !== null && exitCode !== 0),
  };
}

export const terminalTool = defineTool({
  name: "terminal",
  toolsets: ["terminal"],
  kind: "execute",
  untrustedOutput: "command",
  pathArguments: { paths: ["workdir"], command: "command" },
  description:
    "Run a shell command (bash) in the project and return its output and exit code. Use for builds, tests, git, " +
    "package managers and anything a developer would type. Output is captured without colours. Long-running " +
    "servers or watchers: set background=true and manage them with the process tool. Dangerous commands ask the " +
    "user first; some are never allowed. Commands usually run in a sandbox: they can write only inside the " +
    "project, the temp folder and package caches, and credentials and API keys are not visible to them.",
  parameters: () =>
    z.object({
      command: z.string().describe("The command line to run."),
      workdir: z
        .string()
        .optional()
        .describe("Folder to run in (default: the project root). Relative paths resolve against the project root."),
      timeout: z
        .int()
        .optional()
        .describe("Seconds before a foreground command is stopped (default from config, 180)."),
      background: z
        .boolean()
        .optional()
        .describe("Start and return at once with a process id (for servers, watchers, long jobs)."),
    }),
  describe: (args) => {
    const command = str(args?.command);
    return { title: `Run ${shorten(command)}`, locations: [], runningText: `$ ${command}` };
  },
  async run(args, ctx) {
    const command = args.command.trim();
    if (!command) return toolError("The command is empty.");
    const workdir = args.workdir;
    const cwd = workdir ? resolve(ctx.workspace.root, workdir) : ctx.workspace.root;
    const where = await ctx.workspace.stat(cwd);
    if (!where?.isDirectory)
      return toolError(`workdir ${workdir && isAbsolute(workdir) ? "" : `${cwd} `}does not exist or is not a folder.`);
    // Containment first: whether a sandbox holds the command decides how strict the gate must be.
    const containment = await containmentFor(ctx, cwd);
    const { gateCommand, isReadOnlyCommand } = await loadCommandRules();
    const gate = await gateCommand(command, ctx, { cwd });
    if (!gate.allowed) return terminalResult("", null, gate.message);
    // Anything the read-only classifier cannot show to be a read may change the workspace: snapshot it first.
    if (!isReadOnlyCommand(command)) await ctx.state.checkpoint?.beforeChange(terminalReason(command));
    const spec: CommandSpec = {
      command,
      cwd,
      envPassthrough: ctx.state.settings.envPassthrough,
      ...(containment.launcher ? { launcher: containment.launcher } : {}),
    };
    if (args.background === true) {
      if (ctx.state.mode === "read_only" && !containment.launcher)
        return terminalResult(
          "",
          null,
          "BLOCKED: background processes are not started in read-only mode without a sandbox.",
        );
      return startBackground(spec, ctx);
    }
    const seconds = Math.min(MAX_TIMEOUT_SECONDS, Number(args.timeout ?? ctx.state.settings.terminalTimeoutSeconds));
    let result = await runForeground({ ...spec, toolCallId: ctx.toolCallId }, seconds, ctx);
    if (containment.launcher && result.hitWall) result = await escalate(spec, seconds, ctx, result);
    return gate.note ? { ...result.tool, content: `${result.tool.content}\n${gate.note}` } : result.tool;
  },
});

interface ForegroundOutcome {
  readonly tool: ToolResult;
  /** It failed on the sandbox's walls (a write outside what the session may write). */
  readonly hitWall: boolean;
}

/**
 * A contained command that failed on the sandbox's walls: the user decides whether it runs again outside the
 * sandbox (allow once / deny; nothing remembered). YOLO asks nobody, so there the model is told why it failed and
 * how the user can lift the wall; so is a front end that cannot ask.
 */
async function escalate(
  spec: CommandSpec,
  seconds: number,
  ctx: ToolContext,
  failed: ForegroundOutcome,
): Promise<ForegroundOutcome> {
  const wallNote =
    "The command failed on the sandbox's walls: it tried to write outside the workspace, the temp folder and the writable caches (or into .git/config, .git/hooks, HERMES_HOME or a shell start-up file).";
  if (ctx.state.mode === "yolo" || !ctx.approver.canAsk) {
    const how =
      " Work inside the workspace instead, or ask the user to add the folder to terminal.sandbox.writable in config.yaml.";
    return { tool: { ...failed.tool, content: `${failed.tool.content}\n${wallNote}${how}` }, hitWall: true };
  }
  const answer = await ctx.approver.approveCommand(
    {
      toolCallId: ctx.toolCallId,
      command: spec.command,
      description: "blocked by the sandbox: run outside the sandbox?",
      allowPermanent: false,
      allowSession: false,
      outsideSandbox: true,
    },
    ctx.signal,
  );
  if (answer === "deny") {
    return {
      tool: {
        ...failed.tool,
        content: `${failed.tool.content}\n${wallNote} The user declined to run it outside the sandbox; do not retry it another way.`,
      },
      hitWall: true,
    };
  }
  const { launcher: _contained, ...unconfined } = spec;
  const rerun = await runForeground({ ...unconfined, toolCallId: ctx.toolCallId }, seconds, ctx);
  return {
    tool: {
      ...rerun.tool,
      content: `${rerun.tool.content}\n(Run again outside the sandbox, as the user allowed once.)`,
    },
    hitWall: false,
  };
}

async function runForeground(spec: CommandSpec, seconds: number, ctx: ToolContext): Promise<ForegroundOutcome> {
  const handle = ctx.workspace.runCommand(spec);
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
    const text = output.text();
    if (stoppedBy === "cancel")
      return {
        tool: terminalResult(text, exit.exitCode, "Command cancelled by the user; its process group was killed."),
        hitWall: false,
      };
    if (stoppedBy === "timeout") {
      return {
        tool: terminalResult(
          text,
          exit.exitCode,
          `Command timed out after ${seconds}s and was killed. For long-running commands use background=true, or pass a larger timeout.`,
        ),
        hitWall: false,
      };
    }
    const exitCode = exit.exitCode ?? (exit.signal ? 128 : null);
    if (spec.launcher) forgetSandboxIfSetUpFailed(text, exitCode);
    return {
      tool: terminalResult(text, exitCode, exit.signal ? `Killed by signal ${exit.signal}` : null),
      hitWall: failedOnSandboxWall(text, exitCode),
    };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}

function startBackground(spec: CommandSpec, ctx: ToolContext): ToolResult {
  const handle = ctx.workspace.runCommand({ ...spec, stdin: true });
  const entry = ctx.state.processes.add(spec.command, spec.cwd, handle);
  return {
    content: JSON.stringify({
      session_id: entry.id,
      pid: handle.pid ?? null,
      status: "running",
      note: "Started in the background. Use process(action='poll'|'log'|'wait'|'kill'|'write', session_id) to manage it.",
    }),
  };
}

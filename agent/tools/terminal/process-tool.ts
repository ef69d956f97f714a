import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import { str } from "../describe-call.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import { loadCommandRules } from "./load-command-rules.js";
import type { BackgroundProcess } from "./process-table.js";

/**
 * What was written to each process's stdin after its last newline. A shell runs a line only when it is complete, so
 * each write is judged together with the unterminated text before it: `rm -rf ` then `~\n` is judged as `rm -rf ~`.
 */
const pendingInput = new WeakMap<BackgroundProcess, string>();

/**
 * A background process is often a shell (`terminal {command: "bash", background: true}`), so what is written to
 * its stdin is a command line and goes through the same gate as a terminal command: hardline never runs, dangerous
 * asks, read-only mode refuses what is not a read. Nothing is written unless the gate allows it.
 */
async function writeThroughGate(
  entry: BackgroundProcess,
  data: string,
  ctx: ToolContext,
): Promise<ToolResult | undefined> {
  const line = (pendingInput.get(entry) ?? "") + data;
  if (line.trim().length > 0) {
    const { gateCommand } = await loadCommandRules();
    const decision = await gateCommand(line, ctx, { cwd: entry.cwd });
    if (!decision.allowed) return toolError(decision.message);
  }
  entry.handle.write(data);
  pendingInput.set(entry, line.slice(line.lastIndexOf("\n") + 1));
  return undefined;
}

const MAX_WAIT_SECONDS = 600;

function describe(p: BackgroundProcess) {
  return {
    session_id: p.id,
    command: p.command,
    pid: p.handle.pid ?? null,
    status: p.exit ? "exited" : "running",
    exit_code: p.exit?.exitCode ?? null,
    running_seconds: Math.round((Date.now() - p.startedAt) / 1000),
  };
}

const json = (value: unknown): ToolResult => ({ content: JSON.stringify(value) });

export const processTool = defineTool({
  name: "process",
  toolsets: ["terminal"],
  kind: "execute",
  untrustedOutput: "command",
  description:
    "Manage commands started with terminal(background=true): list them, poll one for new output and status, read " +
    "its whole log, wait for it to finish, kill it (and everything it started), or write to its stdin.",
  parameters: () =>
    z.object({
      action: z.enum(["list", "poll", "log", "wait", "kill", "write"]).describe("What to do."),
      session_id: z
        .string()
        .optional()
        .describe("The process id returned by terminal(background=true) (not needed for list)."),
      data: z.string().optional().describe("For write: text to send to stdin (add \\n to press Enter)."),
      timeout: z.int().optional().describe("For wait: seconds to wait at most (default 60)."),
    }),
  describe: (args) => ({
    title: `Process ${str(args?.action)}${args?.session_id ? ` ${str(args.session_id)}` : ""}`,
    locations: [],
  }),
  async run(args, ctx) {
    const action = args.action;
    const table = ctx.state.processes;
    if (action === "list") return json({ processes: table.list().map(describe) });
    const id = typeof args.session_id === "string" ? args.session_id : "";
    const entry = table.get(id);
    if (!entry)
      return toolError(
        `No background process '${id}'. Known: ${
          table
            .list()
            .map((p) => p.id)
            .join(", ") || "none"
        }.`,
      );
    switch (action) {
      case "poll": {
        const text = entry.output.text();
        const fresh = text.slice(entry.polledChars);
        entry.polledChars = text.length;
        return json({ ...describe(entry), new_output: fresh });
      }
      case "log":
        return json({ ...describe(entry), output: entry.output.text() });
      case "wait": {
        const seconds = Math.min(MAX_WAIT_SECONDS, Number(args.timeout ?? 60));
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<"timeout">(
          (resolve) => (timer = setTimeout(() => resolve("timeout"), seconds * 1000)),
        );
        const cancelled = new Promise<"cancel">((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve("cancel"), { once: true }),
        );
        const outcome = await Promise.race([entry.handle.exited.then(() => "exited" as const), timedOut, cancelled]);
        clearTimeout(timer);
        const note =
          outcome === "timeout"
            ? `Still running after ${seconds}s.`
            : outcome === "cancel"
              ? "Wait cancelled by the user; the process keeps running."
              : undefined;
        return json({ ...describe(entry), output: entry.output.text(), ...(note ? { note } : {}) });
      }
      case "kill":
        if (!entry.exit) {
          entry.handle.kill();
          await Promise.race([entry.handle.exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
        }
        return json({ ...describe(entry), note: "Process group killed." });
      case "write": {
        if (entry.exit) return toolError(`Process ${id} has exited; nothing to write to.`);
        const refused = await writeThroughGate(entry, args.data ?? "", ctx);
        return refused ?? json({ ...describe(entry), note: "Written to stdin." });
      }
      default:
        return toolError(`Unknown action '${action}'.`);
    }
  },
});

import type { ToolCallRecord } from "../providers/messages.js";
import { redactKnownSecrets } from "../security/secret-redaction.js";
import { pathArgumentsOf } from "../tools/registry.js";
import type { Tool, ToolContext, ToolResult } from "../tools/tool.js";
import type { ToolEnvironment } from "../tools/tool-environment.js";
import type { AgentEventSink } from "../tools/turn-events.js";
import { parseToolArguments } from "../tools/validate-args.js";
import { flagUntrustedOutput } from "./untrusted-output.js";

/** The most a single tool result may put into the history; the rest is cut with a note. */
export const MAX_TOOL_RESULT_CHARS = 100_000;

export interface ExecutedCall {
  readonly call: ToolCallRecord;
  readonly result: ToolResult;
}

/**
 * Runs the tool calls of one model reply. Non-interactive calls run concurrently; interactive ones (clarify) run
 * one at a time after them. Results come back in the original call order whatever the completion order. A bad
 * call (unknown tool, invalid JSON, missing fields) or a tool that throws becomes an error result the model can
 * act on; nothing here throws.
 */
export async function runToolCalls(
  calls: readonly ToolCallRecord[],
  tools: ReadonlyMap<string, Tool>,
  env: ToolEnvironment,
  signal: AbortSignal,
  emit: AgentEventSink,
): Promise<ExecutedCall[]> {
  const results = new Array<ToolResult>(calls.length);
  const runOne = async (call: ToolCallRecord, index: number) => {
    results[index] = await executeCall(call, tools, env, signal, emit);
  };
  const isInteractive = (call: ToolCallRecord) => tools.get(call.name)?.interactive === true;
  await Promise.all(calls.map((call, i) => (isInteractive(call) ? undefined : runOne(call, i))));
  for (const [i, call] of calls.entries()) if (isInteractive(call)) await runOne(call, i);
  return calls.map((call, i) => ({ call, result: results[i]! }));
}

async function executeCall(
  call: ToolCallRecord,
  tools: ReadonlyMap<string, Tool>,
  env: ToolEnvironment,
  signal: AbortSignal,
  emit: AgentEventSink,
): Promise<ToolResult> {
  const tool = tools.get(call.name);
  const parsed = tool ? parseToolArguments(call.name, call.arguments, tool.parameters) : undefined;
  emit({
    type: "tool_start",
    callId: call.id,
    name: call.name,
    args: parsed?.ok ? parsed.args : undefined,
    rawArguments: call.arguments,
  });
  let result: ToolResult;
  if (signal.aborted) {
    result = { content: "Cancelled by the user before it ran.", isError: true };
  } else if (!tool) {
    result = {
      content: `Unknown tool '${call.name}'. Available tools: ${[...tools.keys()].join(", ")}.`,
      isError: true,
    };
  } else if (!parsed!.ok) {
    result = { content: parsed!.error, isError: true };
  } else {
    const ctx: ToolContext = {
      ...env,
      signal,
      toolCallId: call.id,
      progress: (text) => emit({ type: "tool_progress", callId: call.id, text }),
    };
    const withNesting: ToolContext = {
      ...ctx,
      callTool: (name, args, signal) => runNestedCall(name, args, tools, signal ? { ...ctx, signal } : ctx),
    };
    try {
      result = await tool.run(parsed!.args, withNesting);
    } catch (error) {
      result = {
        content: `Error executing tool '${call.name}': ${(error as Error).message ?? String(error)}`,
        isError: true,
      };
    }
  }
  // Known key values are taken out before the model sees them (a command printing the environment, a file holding
  // a key): what reaches the model reaches the provider's logs. Then what the cap keeps is scanned for injections.
  result = capResult(result);
  result = { ...result, content: redactKnownSecrets(result.content) };
  if (tool) result = flagUntrustedOutput(tool, parsed?.ok ? parsed.args : undefined, result, emit);
  // Upstream appends newly discovered subdirectory context to the tool result, so the system prompt never changes.
  const hints = env.hints?.checkToolCall(call.name, parsed?.ok ? parsed.args : undefined, pathArgumentsOf(call.name));
  if (hints) result = { ...result, content: result.content + hints };
  emit({ type: "tool_end", callId: call.id, name: call.name, result });
  if (result.plan) emit({ type: "plan", todos: result.plan });
  return result;
}

/**
 * A call a tool makes to another of the session's tools (execute_code's scripts): the same argument checks, the same
 * context (so the same gate, sandbox, edit review and checkpoint), the same cap and redaction, but no events: it
 * shows inside the calling tool's card, which lists it. Its own output streams nowhere (the card lists the calls),
 * and it cannot nest further. Never throws.
 */
async function runNestedCall(
  name: string,
  args: Readonly<Record<string, unknown>>,
  tools: ReadonlyMap<string, Tool>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const tool = tools.get(name);
  if (!tool) return { content: `Unknown tool '${name}'.`, isError: true };
  const parsed = parseToolArguments(name, JSON.stringify(args), tool.parameters);
  if (!parsed.ok) return { content: parsed.error, isError: true };
  if (ctx.signal.aborted) return { content: "Cancelled by the user before it ran.", isError: true };
  let result: ToolResult;
  try {
    result = await tool.run(parsed.args, { ...ctx, progress: () => {} });
  } catch (error) {
    result = { content: `Error executing tool '${name}': ${(error as Error).message ?? String(error)}`, isError: true };
  }
  result = capResult(result);
  return { ...result, content: redactKnownSecrets(result.content) };
}

function capResult(result: ToolResult): ToolResult {
  if (result.content.length <= MAX_TOOL_RESULT_CHARS) return result;
  const kept = result.content.slice(0, MAX_TOOL_RESULT_CHARS);
  const omitted = result.content.length - MAX_TOOL_RESULT_CHARS;
  return {
    ...result,
    content: `${kept}\n\n[Output truncated: ${omitted.toLocaleString("en-US")} more characters were cut. Narrow the request (read_file with offset/limit, a more specific search, or pipe the command through head/tail/grep) to see the rest.]`,
  };
}

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as z from "zod/v4";
import { runToolCalls } from "../../agent/loop/tool-runner.js";
import { defineTool } from "../../agent/tools/define-tool.js";
import { FILE_TOOLS } from "../../agent/tools/file/index.js";
import type { Tool, ToolResult } from "../../agent/tools/tool.js";
import type { AgentEvent } from "../../agent/tools/turn-events.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

/** A tool that makes the calls it is given through ctx.callTool and returns what came back, as execute_code does. */
const caller = defineTool({
  name: "caller",
  toolsets: ["test"],
  kind: "other",
  description: "calls other tools",
  parameters: () => z.object({ calls: z.array(z.unknown()) }),
  async run(args, ctx) {
    const seen: ToolResult[] = [];
    for (const item of args.calls as Array<{ name: string; args: Record<string, unknown> }>) {
      if (!ctx.callTool) return { content: "no callTool", isError: true };
      seen.push(await ctx.callTool(item.name, item.args));
    }
    return { content: JSON.stringify(seen.map((r) => [r.isError === true, r.content])) };
  },
});

describe("tool runner: calls a tool makes to other tools", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("runs them with the runner's argument checks and the same context, without events of their own", async () => {
    const root = temp.make("ws-");
    writeFileSync(`${root}/a.txt`, "alpha\n");
    const tools = new Map<string, Tool>([...FILE_TOOLS, caller].map((t) => [t.name, t]));
    const events: AgentEvent[] = [];
    const calls = [
      { name: "read_file", args: { path: "a.txt" } },
      { name: "read_file", args: {} },
      { name: "read_file", args: { path: "a.txt", offset: "two" } },
      { name: "memory", args: {} },
      { name: "caller", args: { calls: [{ name: "read_file", args: { path: "a.txt" } }] } },
    ];
    const [executed] = await runToolCalls(
      [{ id: "c1", name: "caller", arguments: JSON.stringify({ calls }) }],
      tools,
      toolEnvironment(root, temp.make("home-")),
      new AbortController().signal,
      (event) => events.push(event),
    );
    const results = JSON.parse(executed!.result.content) as Array<[boolean, string]>;
    assert.deepEqual(results[0], [false, "1|alpha"]);
    assert.deepEqual(results[1], [true, "Missing required argument for read_file: path."]);
    assert.match(results[2]![1], /^Argument 'offset' of read_file /);
    assert.deepEqual(results[3], [true, "Unknown tool 'memory'."]);
    // One level only: the inner call has no callTool of its own.
    assert.deepEqual(results[4], [true, "no callTool"]);
    assert.deepEqual(
      events.map((e) => [e.type, "callId" in e ? e.callId : ""]),
      [
        ["tool_start", "c1"],
        ["tool_end", "c1"],
      ],
    );
  });
});

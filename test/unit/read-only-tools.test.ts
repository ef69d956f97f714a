import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createMcpTool, type McpToolCaller, type McpToolInfo } from "../../agent/mcp/mcp-tool.js";
import type { CommandApproval } from "../../agent/tools/approver.js";
import { memoryTool } from "../../agent/tools/session/memory-tool.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment } from "../helpers/tool-env.js";

/** An MCP client that records the calls that reached the server. */
function recordingClient(): McpToolCaller & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    callTool: async (params) => {
      calls.push(params.name);
      return { content: [{ type: "text", text: `ran ${params.name}` }] };
    },
  };
}

describe("read-only mode for tools other than commands", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function env(user = new ScriptedUser()) {
    const e = toolEnvironment(temp.make(), temp.make(), user);
    e.state.mode = "read_only";
    return e;
  }

  it("refuses every memory write and leaves the memory files untouched", async () => {
    const e = env();
    for (const args of [
      { action: "add", content: "User prefers tabs." },
      { action: "remove", old_text: "tabs" },
      { operations: [{ action: "add", content: "x y z" }] },
    ]) {
      const result = await runTool(memoryTool, args, e);
      assert.equal(result.isError, true);
      assert.match(result.content, /Read-only mode: memory is not changed in this mode/);
    }
    assert.ok(!existsSync(join(e.home, "memories")) || !existsSync(join(e.home, "memories", "MEMORY.md")));

    e.state.mode = "default";
    const saved = await runTool(memoryTool, { action: "add", content: "User prefers tabs." }, e);
    assert.equal(saved.isError, undefined, saved.content);
    assert.match(readFileSync(join(e.home, "memories", "MEMORY.md"), "utf8"), /User prefers tabs\./);
  });

  function mcpTool(client: McpToolCaller, info: Partial<McpToolInfo> = {}) {
    return createMcpTool({
      server: "tracker",
      tool: { name: "create_issue", ...info },
      client,
      name: "mcp_tracker_create_issue",
    });
  }

  it("asks before an MCP tool its server does not mark read-only, and runs it only on a yes", async () => {
    const client = recordingClient();
    const denying = new ScriptedUser(["deny"]);
    const refused = await runTool(mcpTool(client), { title: "x" }, env(denying));
    assert.equal(refused.isError, true);
    assert.match(refused.content, /Read-only mode: mcp_tracker_create_issue .* the user did not allow it/);
    assert.deepEqual(client.calls, []);
    assert.equal(denying.commandRequests.length, 1);
    assert.match(
      denying.commandRequests[0]!.description,
      /Read-only mode: MCP tool 'create_issue' of server 'tracker' may change things/,
    );
    assert.equal(denying.commandRequests[0]!.command, 'mcp_tracker_create_issue {"title":"x"}');
    assert.equal(denying.commandRequests[0]!.allowPermanent, false);

    const answers: CommandApproval[] = ["once"];
    const allowing = new ScriptedUser(answers);
    const ran = await runTool(mcpTool(client), {}, env(allowing));
    assert.equal(ran.content, "ran create_issue");
    assert.deepEqual(client.calls, ["create_issue"]);
  });

  it("remembers 'allow for session' for that tool", async () => {
    const client = recordingClient();
    const user = new ScriptedUser(["session"]);
    const e = env(user);
    const tool = mcpTool(client);
    await runTool(tool, {}, e);
    await runTool(tool, {}, e);
    assert.equal(user.commandRequests.length, 1);
    assert.deepEqual(client.calls, ["create_issue", "create_issue"]);
  });

  it("refuses without asking when no one can answer, and runs readOnlyHint tools and every tool outside read-only mode unasked", async () => {
    const client = recordingClient();
    const mute = new ScriptedUser([], [], false);
    const refused = await runTool(mcpTool(client), {}, env(mute));
    assert.match(refused.content, /there is no one to ask for approval here/);
    assert.deepEqual(client.calls, []);

    const user = new ScriptedUser();
    await runTool(mcpTool(client, { annotations: { readOnlyHint: true } }), {}, env(user));
    const e = env(user);
    e.state.mode = "default";
    await runTool(mcpTool(client), {}, e);
    assert.equal(user.commandRequests.length, 0);
    assert.deepEqual(client.calls, ["create_issue", "create_issue"]);
  });
});

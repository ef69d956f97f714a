import { strict as assert } from "node:assert";
import { echoServerCommand } from "../helpers/mcp-echo-command.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

describe("hermes-acp: MCP servers from session/new", () => {
  const server = useScriptedServer({ maxRetries: 0, initialize: false });

  it("offers a stdio MCP server's tools to the model, runs them, and tells the user about one that failed", async function () {
    this.timeout(30_000);
    const init = await server.harness.initialize();
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
    const workspace = server.temp.make("hermes-ws-");
    const { sessionId } = await server.harness.agent.request("session/new", {
      cwd: workspace,
      mcpServers: [
        { name: "echo", ...echoServerCommand(), env: [] },
        { name: "ghost", command: "/nonexistent/mcp-server", args: [], env: [] },
      ],
    });
    server.llm.enqueue(
      { kind: "tool_calls", calls: [{ id: "m1", name: "mcp_echo_add", argumentPieces: ['{"a": 2, "b": 40}'] }] },
      { kind: "text", chunks: ["The sum is 42."] },
    );
    await server.harness.prompt(sessionId, "add 2 and 40 with the MCP tool");
    const offered = server.llm.requests[0]!.body.tools!.map((t) => t.function.name);
    assert.ok(offered.includes("mcp_echo_echo") && offered.includes("mcp_echo_add"), offered.join(", "));
    assert.ok(offered.includes("read_file"), "built-in tools stay");
    assert.equal(String(server.llm.requests[1]!.body.messages.at(-1)!.content), "42");
    const reply = server.harness.replyText(sessionId);
    assert.match(reply, /MCP server ghost did not start/);
    assert.ok(reply.endsWith("The sum is 42."));
  });
});

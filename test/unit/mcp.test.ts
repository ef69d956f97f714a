import { strict as assert } from "node:assert";
import type { McpServer as AcpMcpServer } from "@agentclientprotocol/sdk";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { Conversation } from "../../agent/loop/conversation.js";
import { connectMcpServers, type McpConnections } from "../../agent/mcp/mcp-connections.js";
import type { McpServerSpec, McpStdioServerSpec } from "../../agent/mcp/mcp-server-spec.js";
import { mcpCallResult, mcpToolName, mcpToolParameters } from "../../agent/mcp/mcp-tool.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import type { Tool } from "../../agent/tools/tool.js";
import { type EchoHttpServer, startEchoHttpServer } from "../fixtures/mcp-echo-http.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { echoServerCommand } from "../helpers/mcp-echo-command.js";
import { stillRunningAfter } from "../helpers/process-alive.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";

// ACP's session/new servers must be usable as ours without conversion (a compile-time check).
const fromAcp: readonly McpServerSpec[] = [] as AcpMcpServer[];
void fromAcp;

function echoServer(name = "echo", env: Array<{ name: string; value: string }> = []): McpStdioServerSpec {
  return { name, ...echoServerCommand(), env };
}

function tool(connections: McpConnections, name: string): Tool {
  const found = connections.tools.find((t) => t.name === name);
  assert.ok(found, `no tool ${name} among ${connections.tools.map((t) => t.name).join(", ")}`);
  return found;
}

describe("MCP tools", () => {
  const temp = new TempDirs();
  after(() => temp.cleanup());
  const env = () => toolEnvironment(temp.make(), temp.make());

  describe("naming, schemas and results", () => {
    it("prefixes names with the server, keeps them provider-safe, at most 64 characters and unique", () => {
      const taken = new Set<string>();
      assert.equal(mcpToolName("my server.v2", "get/data", taken), "mcp_my_server_v2_get_data");
      assert.equal(
        mcpToolName("my server.v2", "get data", taken),
        "mcp_my_server_v2_get_data_2",
        "a clash gets a suffix",
      );
      const long = mcpToolName("s", "x".repeat(100), taken);
      assert.equal(long.length, 64);
      assert.equal(mcpToolName("s", "x".repeat(90), taken), `${long.slice(0, 62)}_2`);
      for (const name of taken) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
    });

    it("makes any input schema an object schema with properties, and only declared fields required", () => {
      assert.deepEqual(mcpToolParameters(undefined), { type: "object", properties: {} });
      assert.deepEqual(
        mcpToolParameters({
          $schema: "x",
          type: "object",
          properties: { a: { type: "string" }, b: true },
          required: ["a", "ghost"],
          additionalProperties: false,
        }),
        { type: "object", properties: { a: { type: "string" }, b: {} }, required: ["a"], additionalProperties: false },
      );
    });

    it("turns content blocks into text: binary as placeholders, embedded text kept, isError carried over", () => {
      const result = mcpCallResult({
        isError: true,
        content: [
          { type: "text", text: "first" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
          { type: "audio", mimeType: "audio/wav", data: "AAA=" },
          { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "inside" } },
          { type: "resource", resource: { uri: "file:///b.bin", blob: "AA==" } },
          { type: "resource_link", uri: "file:///c.md", name: "c.md" },
        ],
      });
      assert.equal(result.isError, true);
      assert.equal(
        result.content,
        "first\n[image: image/png, 3 bytes]\n[audio: audio/wav, 2 bytes]\n[resource: file:///a.txt, text/plain]\ninside\n" +
          "[resource: file:///b.bin, 1 bytes]\n[resource link: c.md <file:///c.md>]",
      );
      assert.equal(mcpCallResult({ content: [], structuredContent: { sum: 3 } }).content, '{\n  "sum": 3\n}');
      assert.equal(
        mcpCallResult({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } }).content,
        "3",
      );
      assert.equal(mcpCallResult({ content: [] }).isError, undefined);
    });
  });

  describe("over stdio", () => {
    let connections: McpConnections;
    const logs: string[] = [];
    let cwd: string;
    before(async () => {
      cwd = temp.make();
      connections = await connectMcpServers(
        [
          echoServer("echo", [{ name: "MCP_ECHO_TAG", value: "from-session" }]),
          { name: "ghost", command: "/nonexistent/mcp-server", args: [], env: [] },
        ],
        {
          cwd,
          log: (line) => logs.push(line),
        },
      );
    });
    after(() => connections?.close());

    it("lists the server's tools under prefixed names with their schemas", () => {
      assert.deepEqual(connections.tools.map((t) => t.name).sort(), [
        "mcp_echo_add",
        "mcp_echo_echo",
        "mcp_echo_fail",
        "mcp_echo_slow",
        "mcp_echo_whoami",
      ]);
      const echo = tool(connections, "mcp_echo_echo");
      assert.equal(echo.description, "[MCP server echo] Repeats the given text.");
      assert.deepEqual(echo.parameters, {
        type: "object",
        properties: { text: { type: "string", description: "What to repeat" } },
        required: ["text"],
      });
      assert.deepEqual(tool(connections, "mcp_echo_add").parameters.required, ["a", "b"]);
      assert.deepEqual(connections.servers, [
        { name: "echo", transport: "stdio", tools: connections.tools.map((t) => t.name) },
      ]);
    });

    it("reports a server whose command does not exist, without failing the others", () => {
      assert.equal(connections.failures.length, 1);
      assert.equal(connections.failures[0]!.server, "ghost");
      assert.match(connections.failures[0]!.message, /command not found: \/nonexistent\/mcp-server/);
    });

    it("runs the tools: results as text, tool errors as errors", async () => {
      assert.deepEqual(await runTool(tool(connections, "mcp_echo_echo"), { text: "hi there" }, env()), {
        content: "echo: hi there",
      });
      assert.deepEqual(await runTool(tool(connections, "mcp_echo_add"), { a: 2, b: 3.5 }, env()), { content: "5.5" });
      assert.deepEqual(await runTool(tool(connections, "mcp_echo_fail"), {}, env()), {
        content: "fail: this tool always fails",
        isError: true,
      });
      const invalid = await runTool(tool(connections, "mcp_echo_add"), { a: "two", b: 3 }, env());
      assert.equal(invalid.isError, true, "the server's own argument validation comes back as an error result");
    });

    it("starts the server in the session's cwd with the given environment over the agent's", async () => {
      const who = JSON.parse((await runTool(tool(connections, "mcp_echo_whoami"), {}, env())).content) as {
        cwd: string;
        tag: string;
      };
      assert.equal(who.cwd, cwd);
      assert.equal(who.tag, "from-session");
      assert.ok(logs.includes("[mcp echo] mcp-echo-server ready"), "stderr lines reach the log");
    });

    it("cancels a running call, and the server hears of it", async () => {
      const controller = new AbortController();
      const started = Date.now();
      const running = runTool(tool(connections, "mcp_echo_slow"), { ms: 10_000 }, env(), controller.signal);
      setTimeout(() => controller.abort(), 200);
      const result = await running;
      assert.equal(result.isError, true);
      assert.match(result.content, /Cancelled by the user/);
      assert.ok(Date.now() - started < 8000, "returned long before the 10 s call would have");
      for (let i = 0; i < 100 && !logs.some((l) => l.includes("slow: cancelled")); i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(
        logs.some((l) => l.includes("slow: cancelled after")),
        logs.join("\n"),
      );
      assert.deepEqual(await runTool(tool(connections, "mcp_echo_echo"), { text: "still here" }, env()), {
        content: "echo: still here",
      });
    });
  });

  it("close() stops the stdio server, is idempotent, and later calls fail with the server's name", async () => {
    const connections = await connectMcpServers([echoServer("solo")], { cwd: temp.make() });
    const { pid } = JSON.parse((await runTool(tool(connections, "mcp_solo_whoami"), {}, env())).content) as {
      pid: number;
    };
    await Promise.all([connections.close(), connections.close()]);
    assert.equal(await stillRunningAfter(pid), false, `pid ${pid} still running`);
    const after = await runTool(tool(connections, "mcp_solo_echo"), { text: "x" }, env());
    assert.equal(after.isError, true);
    assert.match(after.content, /MCP server 'solo'/);
  });

  it("logs a server that dies mid-session; its tools then fail with its name", async () => {
    const logs: string[] = [];
    const connections = await connectMcpServers([echoServer("fragile")], {
      cwd: temp.make(),
      log: (line) => logs.push(line),
    });
    try {
      const { pid } = JSON.parse((await runTool(tool(connections, "mcp_fragile_whoami"), {}, env())).content) as {
        pid: number;
      };
      process.kill(pid, "SIGKILL");
      for (let i = 0; i < 100 && !logs.some((l) => l.includes("closed the connection")); i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.ok(
        logs.some((l) => l.includes("MCP server 'fragile' closed the connection")),
        logs.join("\n"),
      );
      const result = await runTool(tool(connections, "mcp_fragile_echo"), { text: "x" }, env());
      assert.equal(result.isError, true);
      assert.match(result.content, /^MCP server 'fragile' failed to run echo: /);
    } finally {
      await connections.close();
    }
  });

  it("starts nothing when the session is cancelled first", async () => {
    const connections = await connectMcpServers([echoServer("late")], {
      cwd: temp.make(),
      signal: AbortSignal.abort(),
    });
    assert.deepEqual(connections.failures, [{ server: "late", message: "cancelled while starting" }]);
    assert.deepEqual(connections.tools, []);
  });

  it("reports a server that exits at start with its stderr, and one that never answers as timed out", async () => {
    const connections = await connectMcpServers(
      [
        { name: "crash", command: process.execPath, args: ["-e", "console.error('boom: no config'); process.exit(3)"] },
        {
          name: "mute",
          command: process.execPath,
          args: ["-e", "process.stdin.resume(); process.stdin.on('end', () => process.exit(0))"],
        },
      ],
      { cwd: temp.make(), timeoutMs: 500 },
    );
    await connections.close();
    assert.deepEqual(connections.tools, []);
    const byServer = new Map(connections.failures.map((f) => [f.server, f.message]));
    assert.match(byServer.get("crash") ?? "", /boom: no config/);
    assert.match(byServer.get("mute") ?? "", /did not start within 500 ms/);
  });

  describe("over HTTP", () => {
    let http: EchoHttpServer;
    before(async () => (http = await startEchoHttpServer()));
    after(() => http.close());

    it("connects over Streamable HTTP and SSE with the given headers, and ends the HTTP session on close", async () => {
      const headers = [{ name: "Authorization", value: "Bearer t0ken" }];
      const connections = await connectMcpServers(
        [
          { type: "http", name: "web", url: `${http.base}/mcp`, headers },
          { type: "sse", name: "old", url: `${http.base}/sse`, headers },
          { type: "http", name: "down", url: "http://127.0.0.1:9/mcp", headers: [] },
        ],
        { cwd: temp.make() },
      );
      try {
        assert.deepEqual(
          connections.failures.map((f) => f.server),
          ["down"],
        );
        assert.match(connections.failures[0]!.message, /http:\/\/127\.0\.0\.1:9\/mcp/);
        assert.deepEqual(await runTool(tool(connections, "mcp_web_echo"), { text: "over http" }, env()), {
          content: "echo: over http",
        });
        assert.deepEqual(await runTool(tool(connections, "mcp_old_add"), { a: 1, b: 2 }, env()), { content: "3" });
        assert.ok(http.seen.length > 0 && http.seen.every((r) => r.auth === "Bearer t0ken"), JSON.stringify(http.seen));
      } finally {
        await connections.close();
      }
      assert.ok(
        http.seen.some((r) => r.method === "DELETE" && r.path === "/mcp"),
        "the HTTP session was terminated",
      );
    });
  });

  it("the scripted model calls an MCP tool through the conversation loop", async () => {
    const llm = await ScriptedLlm.start();
    const connections = await connectMcpServers([echoServer("echo")], { cwd: temp.make() });
    try {
      llm.enqueue(
        {
          kind: "tool_calls",
          text: "",
          calls: [{ id: "call_1", name: "mcp_echo_echo", argumentPieces: ['{"text":', '"from the model"}'] }],
        },
        { kind: "text", chunks: ["Done."] },
      );
      const runtime: RuntimeProvider = {
        providerId: "custom",
        providerLabel: "Scripted",
        model: "scripted-model",
        baseUrl: llm.baseUrl,
        apiMode: "chat_completions",
        apiKey: undefined,
        keySource: undefined,
        keyVariables: [],
        keyOptional: true,
        contextLength: undefined,
      };
      const convo = new Conversation({
        runtime,
        systemPrompt: "system",
        openModelClient: createModelClient,
        tools: connections.tools,
        maxIterations: 5,
      });
      const stop = await convo.runTurn("echo something", new AbortController().signal, () => {}, env());
      assert.equal(stop, "end_turn");
      assert.ok(
        llm.requests[0]!.body.tools?.some((t) => t.function.name === "mcp_echo_add"),
        "MCP tools are offered to the model",
      );
      const toolMessage = llm.requests[1]!.body.messages.find((m) => m.role === "tool");
      assert.equal(toolMessage?.content, "echo: from the model");
    } finally {
      await connections.close();
      await llm.close();
    }
  });
});

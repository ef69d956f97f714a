import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { echoServerCommand } from "../helpers/mcp-echo-command.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

const ECHO_COMMAND = echoServerCommand();
/** The suite's echo MCP server as a config.yaml stdio entry (JSON is YAML). */
const ECHO = `command: ${JSON.stringify(ECHO_COMMAND.command)}\n    args: ${JSON.stringify(ECHO_COMMAND.args)}`;

const offeredTools = (body: { tools?: { function: { name: string } }[] }) =>
  (body.tools ?? []).map((t) => t.function.name).filter((name) => name.startsWith("mcp_"));

describe("hermes-acp: MCP servers from config.yaml", () => {
  describe("with the session", () => {
    const server = useScriptedServer({
      maxRetries: 0,
      env: () => ({ ECHO_TAG: "from-env" }),
      prepare: (s) => writeFileSync(join(s.home, ".env"), "DOTENV_TAG=from-dotenv\n"),
      config: [
        "mcp_servers:",
        "  echo:",
        `    ${ECHO}`,
        "    env: { MCP_ECHO_TAG: '${ECHO_TAG}+${DOTENV_TAG}' }",
        "    tools: { include: [whoami, add] }",
        "  trimmed:",
        `    ${ECHO}`,
        "    tools: { exclude: [echo, fail, slow, whoami] }",
        "  clash:",
        `    ${ECHO}`,
        "    tools: { include: [add] }",
        "  off:",
        "    command: /nonexistent/never-started",
        "    enabled: false",
        "  ghost:",
        "    command: /nonexistent/mcp-server",
        "    args: ['--token=${NOT_SET_ANYWHERE}']",
        "  broken:",
        "    command: x",
        "    timeout: soon",
        "",
      ].join("\n"),
    });

    it("offers and calls their tools (filtered, ${VAR}s expanded), skips enabled: false, lets the editor's entry win, and tells what failed", async function () {
      this.timeout(60_000);
      const { sessionId } = await server.harness.agent.request("session/new", {
        cwd: server.workspace,
        mcpServers: [
          {
            name: "clash",
            ...ECHO_COMMAND,
            env: [{ name: "MCP_ECHO_TAG", value: "editor" }],
          },
        ],
      });
      server.llm.enqueue(
        { kind: "tool_calls", calls: [{ id: "w1", name: "mcp_echo_whoami", argumentPieces: ["{}"] }] },
        { kind: "text", chunks: ["Tagged."] },
      );
      await server.harness.prompt(sessionId, "who is the echo server?");
      const offered = offeredTools(server.llm.requests[0]!.body);
      assert.deepEqual(
        offered.filter((name) => name.startsWith("mcp_echo_")),
        ["mcp_echo_add", "mcp_echo_whoami"],
      );
      assert.deepEqual(
        offered.filter((name) => name.startsWith("mcp_trimmed_")),
        ["mcp_trimmed_add"],
      );
      // The editor's `clash` has no filter, config.yaml's would offer only add: the editor's entry was used.
      assert.ok(offered.includes("mcp_clash_echo") && offered.includes("mcp_clash_whoami"), offered.join(", "));
      assert.ok(!offered.some((name) => name.startsWith("mcp_off_") || name.startsWith("mcp_ghost_")));
      const result = String(server.llm.requests[1]!.body.messages.at(-1)!.content);
      assert.match(result, /"tag":"from-env\+from-dotenv"/);

      const reply = server.harness.replyText(sessionId);
      assert.match(reply, /MCP server ghost did not start/);
      assert.match(reply, /config\.yaml:\d+:\d+: mcp_servers\.broken: `timeout` must be a number of seconds/);
      assert.match(reply, /MCP server ghost: \$\{NOT_SET_ANYWHERE\} not set/);
      assert.doesNotMatch(reply, /never-started/);
      assert.ok(reply.endsWith("Tagged."));
    });
  });

  describe("/reload-mcp", () => {
    const server = useScriptedServer({
      maxRetries: 0,
      config: `mcp_servers:\n  echo:\n    ${ECHO}\n    tools: { include: [echo] }\n`,
    });

    it("restarts the servers from the changed config.yaml and replaces their tools in the conversation", async function () {
      this.timeout(60_000);
      const sessionId = await server.harness.newSession(server.workspace);
      server.llm.enqueue({ kind: "text", chunks: ["Hello."] });
      await server.harness.prompt(sessionId, "hi");
      assert.deepEqual(offeredTools(server.llm.requests[0]!.body), ["mcp_echo_echo"]);

      const configPath = join(server.home, "config.yaml");
      const changed = readFileSync(configPath, "utf8").replace("include: [echo]", "include: [add]");
      writeFileSync(configPath, `${changed}  ghost:\n    command: /nonexistent/mcp-server\n`);
      const reload = await server.harness.replyTo(sessionId, "/reload-mcp");
      assert.match(reload, /^MCP servers reloaded/);
      assert.match(reload, /Connected \(1\):\n {2}echo \(stdio\), 1 tool: mcp_echo_add/);
      assert.match(reload, /Failed \(1\):\n {2}ghost: command not found: \/nonexistent\/mcp-server/);

      server.llm.enqueue(
        { kind: "tool_calls", calls: [{ id: "a1", name: "mcp_echo_add", argumentPieces: ['{"a": 2, "b": 3}'] }] },
        { kind: "text", chunks: ["Five."] },
      );
      assert.ok((await server.harness.replyTo(sessionId, "add 2 and 3")).endsWith("Five."));
      assert.deepEqual(offeredTools(server.llm.requests[1]!.body), ["mcp_echo_add"]);
      assert.match(String(server.llm.requests[2]!.body.messages.at(-1)!.content), /\b5\b/);
      // The model's history is kept across the reload.
      assert.ok(server.llm.requests[1]!.body.messages.some((m) => m.content === "hi"));

      const tools = await server.harness.replyTo(sessionId, "/tools");
      assert.match(tools, /mcp-echo\s+mcp_echo_add\n/);
    });
  });
});

import { strict as assert } from "node:assert";
import { connectMcpServers } from "../../agent/mcp/mcp-connections.js";
import { offeredTools, stdioEnvironment } from "../../agent/mcp/mcp-server-policy.js";
import { type EchoHttpServer, startEchoHttpServer } from "../fixtures/mcp-echo-http.js";
import { TempDirs } from "../helpers/temp-dirs.js";

describe("MCP server policy (config.yaml's per-server settings)", () => {
  const temp = new TempDirs();
  after(() => temp.cleanup());

  it("offers the included tools, or all but the excluded ones; include wins", () => {
    const tools = ["echo", "add", "fail"].map((name) => ({ name }));
    const names = (policy: Parameters<typeof offeredTools>[1]) => offeredTools(tools, policy).map((t) => t.name);
    assert.deepEqual(names(undefined), ["echo", "add", "fail"]);
    assert.deepEqual(names({ include: ["add", "missing"] }), ["add"]);
    assert.deepEqual(names({ exclude: ["fail"] }), ["echo", "add"]);
    assert.deepEqual(names({ include: ["fail"], exclude: ["fail"] }), ["fail"]);
  });

  it("gives config.yaml's stdio servers upstream's filtered environment, the editor's the whole one", () => {
    const parent = { PATH: "/bin", HOME: "/h", XDG_CONFIG_HOME: "/x", OPENAI_API_KEY: "sk-secret", EDITOR_VAR: "e" };
    const env = [{ name: "OWN", value: "1" }];
    assert.deepEqual(stdioEnvironment({ name: "c", command: "x", env, environment: "safe" }, parent), {
      PATH: "/bin",
      HOME: "/h",
      XDG_CONFIG_HOME: "/x",
      OWN: "1",
    });
    assert.deepEqual(stdioEnvironment({ name: "e", command: "x", env }, parent), { ...parent, OWN: "1" });
  });

  it("gives up on a server after its own connect_timeout", async function () {
    this.timeout(15_000);
    const connections = await connectMcpServers(
      [
        {
          name: "mute",
          command: process.execPath,
          args: ["-e", "setInterval(() => {}, 1000)"],
          policy: { connectTimeoutMs: 300 },
        },
      ],
      { cwd: temp.make() },
    );
    assert.match(connections.failures[0]?.message ?? "", /did not start within 300 ms/);
    await connections.close();
  });

  describe("an SSE-only server named by url alone", () => {
    let http: EchoHttpServer;
    before(async () => (http = await startEchoHttpServer({ sseOnly: true })));
    after(() => http.close());

    it("is reached over SSE after Streamable HTTP is refused, as upstream; pinned to http it fails", async () => {
      const connections = await connectMcpServers(
        [
          { type: "http", name: "legacy", url: `${http.base}/sse`, headers: [], sseFallback: true },
          { type: "http", name: "pinned", url: `${http.base}/sse`, headers: [] },
        ],
        { cwd: temp.make() },
      );
      try {
        assert.deepEqual(connections.servers, [
          {
            name: "legacy",
            transport: "sse",
            tools: ["mcp_legacy_echo", "mcp_legacy_add", "mcp_legacy_fail", "mcp_legacy_slow", "mcp_legacy_whoami"],
          },
        ]);
        assert.deepEqual(
          connections.failures.map((f) => f.server),
          ["pinned"],
        );
        assert.match(connections.failures[0]!.message, /Method Not Allowed/);
        assert.ok(
          http.seen.some((r) => r.method === "POST" && r.path === "/sse"),
          "Streamable HTTP was tried first",
        );
      } finally {
        await connections.close();
      }
    });
  });
});

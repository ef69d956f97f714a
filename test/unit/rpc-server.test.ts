import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseRpcRequest } from "../../agent/tools/code/rpc-request.js";
import { MAX_RPC_LINE_BYTES, ScriptRpcServer } from "../../agent/tools/code/rpc-server.js";

const TOKEN = "s3cret-token";
const rules = { token: TOKEN, allowedTools: new Set(["read_file", "terminal"]) };

describe("execute_code's RPC requests", () => {
  it("accepts a request with the run's token and an allowed tool, dropping terminal's background options", () => {
    assert.deepEqual(
      parseRpcRequest(
        JSON.stringify({ tool: "terminal", args: { command: "ls", background: true }, token: TOKEN }),
        rules,
      ),
      { ok: true, tool: "terminal", args: { command: "ls" } },
    );
  });

  it("refuses a wrong, missing or empty token, whatever the request asks", () => {
    for (const token of ["s3cret-tokeN", "", undefined, 42, "s3cret-token-longer"]) {
      assert.deepEqual(parseRpcRequest(JSON.stringify({ tool: "read_file", args: {}, token }), rules), {
        ok: false,
        error: "Unauthorized RPC request",
      });
    }
    // A server without a token accepts no one, not even a request with an empty one.
    assert.equal(parseRpcRequest(JSON.stringify({ tool: "read_file", token: "" }), { ...rules, token: "" }).ok, false);
  });

  it("words malformed lines, unknown tools and bad arguments as upstream does", () => {
    assert.match((parseRpcRequest("{not json", rules) as { error: string }).error, /^Invalid RPC request: /);
    assert.equal(
      (parseRpcRequest("[1]", rules) as { error: string }).error,
      "Invalid RPC request: expected a JSON object",
    );
    assert.deepEqual(parseRpcRequest(JSON.stringify({ tool: "memory", token: TOKEN }), rules), {
      ok: false,
      error: "Tool 'memory' is not available in execute_code. Available: read_file, terminal",
    });
    assert.equal(parseRpcRequest(JSON.stringify({ tool: "read_file", args: "x", token: TOKEN }), rules).ok, false);
  });
});

describe("execute_code's RPC server", () => {
  let dir = "";
  let server: ScriptRpcServer | undefined;
  const dispatched: string[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "rpc-test-"));
    dispatched.length = 0;
    server = await ScriptRpcServer.listen(join(dir, "rpc.sock"), {
      ...rules,
      maxToolCalls: 2,
      dispatch: async (tool, args) => {
        dispatched.push(tool);
        return JSON.stringify({ echoed: args });
      },
    });
  });
  afterEach(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends raw text and collects `count` reply lines. */
  function exchange(text: string, count: number): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const socket = connect(join(dir, "rpc.sock"));
      let received = "";
      socket.on("data", (data) => {
        received += data.toString("utf8");
        const lines = received.split("\n").filter(Boolean);
        if (lines.length >= count) {
          socket.destroy();
          resolve(lines);
        }
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(received.split("\n").filter(Boolean)));
      socket.write(text);
    });
  }

  const request = (args: object, token = TOKEN) => `${JSON.stringify({ tool: "read_file", args, token })}\n`;

  it("answers each line in order, refuses without dispatching, and stops at the budget", async () => {
    const replies = await exchange(
      `${request({ n: 1 })}garbage\n${request({ n: 2 }, "wrong")}${request({ n: 3 })}${request({ n: 4 })}`,
      5,
    );
    assert.deepEqual(
      replies.map((r) => JSON.parse(r)),
      [
        { echoed: { n: 1 } },
        { error: "Invalid RPC request: Unexpected token 'g', \"garbage\" is not valid JSON" },
        { error: "Unauthorized RPC request" },
        { echoed: { n: 3 } },
        { error: "Tool call limit reached (2). No more tool calls allowed in this execution." },
      ],
    );
    assert.deepEqual(dispatched, ["read_file", "read_file"]);
    assert.equal(server!.toolCallsMade, 2);
  });

  it("closes a connection whose line grows past the cap, without dispatching it", async () => {
    const replies = await exchange("x".repeat(MAX_RPC_LINE_BYTES + 10), 1);
    assert.match(JSON.parse(replies[0]!).error, /a request line is limited to/);
    assert.deepEqual(dispatched, []);
  });
});

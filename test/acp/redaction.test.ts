import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedCall } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";
import { writeTree } from "../helpers/temp-dirs.js";

/** A key with no provider's shape: only the held-values rule can catch it. */
const CONFIG_KEY = "plain-endpoint-key-Zq8Xw2Lm9Rt4Vb7N";
/** A key from the server's environment (the VS Code extension passes keys this way). */
const ENV_KEY = "envkey-Hj5Kd8Pq2Ws6Yx9Ca3";
/** A key the provider echoes that the server does not hold: only its shape gives it away. */
const FOREIGN_KEY = "sk-ant-api03-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz";

describe("hermes-acp: keys never reach the log, the client's error messages or the model", () => {
  const server = useScriptedServer({
    maxRetries: 0,
    makeHome: (s) => {
      const home = s.temp.make();
      writeTree(home, {
        "config.yaml": `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${s.llm.baseUrl}\n  api_key: ${CONFIG_KEY}\n  max_retries: 0\n`,
      });
      return home;
    },
    env: () => ({ MY_SERVICE_TOKEN: ENV_KEY }),
  });

  it("redacts a provider error that echoes the configured key, a held environment key and a foreign key shape", async () => {
    server.llm.enqueue({
      kind: "error",
      status: 401,
      message: `Invalid key ${CONFIG_KEY}; also tried ${ENV_KEY} and ${FOREIGN_KEY}`,
    });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "hi");
    const reply = server.harness.replyText(sessionId);
    assert.match(reply, /refused the request with HTTP 401/);
    assert.match(reply, /\[redacted model\.api_key\]/);
    assert.match(reply, /\[redacted MY_SERVICE_TOKEN\]/);
    assert.match(reply, /sk-ant-api03-…\[redacted\]/);
    for (const key of [CONFIG_KEY, ENV_KEY, FOREIGN_KEY]) {
      assert.ok(!reply.includes(key), `reply leaks ${key}: ${reply}`);
      assert.ok(!server.harness.stderr.includes(key), `log leaks ${key}`);
      assert.ok(!server.harness.stdoutLines.join("\n").includes(key), `ACP stream leaks ${key}`);
    }
  });

  it("takes a held key out of a file before the model reads it", async () => {
    writeFileSync(join(server.workspace, "deploy.env"), `ENDPOINT=https://llm.internal\nKEY=${CONFIG_KEY}\n`);
    server.llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("r1", "read_file", { path: "deploy.env" })] },
      { kind: "text", chunks: ["ok"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "read deploy.env");
    const request = JSON.stringify(server.llm.requests[1]!.body);
    assert.ok(!request.includes(CONFIG_KEY), "the model request carries no held key");
    assert.match(request, /KEY=\[redacted model\.api_key\]/);
  });
});

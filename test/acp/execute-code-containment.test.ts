import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probeSandbox } from "../../agent/sandbox/sandbox-probe.js";
import { scriptedCall as call } from "../fixtures/scripted-llm.js";
import { type ScriptedServer, useScriptedServer } from "../helpers/scripted-server.js";
import { PROTECTED_TEST_HOMES, writeTree } from "../helpers/temp-dirs.js";

const KEY = "sk-canary-key-0123456789abcdef";

/** Runs one execute_code call in a session (in `mode` when given) and returns what the model got back. */
async function runScript(server: ScriptedServer, code: string, mode?: string): Promise<Record<string, unknown>> {
  server.llm.enqueue(
    { kind: "tool_calls", calls: [call("c_py", "execute_code", { code })] },
    { kind: "text", chunks: ["done"] },
  );
  const sessionId = await server.harness!.newSession(server.workspace);
  if (mode) await server.harness!.agent.request("session/set_mode", { sessionId, modeId: mode });
  await server.harness!.prompt(sessionId, "run it");
  const message = server.llm.requests[1]?.body.messages.findLast((m) => m.role === "tool");
  assert.ok(message, "the model received a tool result");
  return JSON.parse(String(message.content)) as Record<string, unknown>;
}

/**
 * The script itself, judged by effect: inside the sandbox it runs without a question but cannot reach HOME's files
 * or the server's keys; in read-only mode it still reaches the server (the socket sits on a read-only mount) but
 * cannot write; with the sandbox off the gate asks for the script as a whole, and a no stops it.
 */
describe("hermes-acp: execute_code's script, contained", function () {
  this.timeout(60_000);
  let home = "";
  const server = useScriptedServer({
    permission: "deny",
    prepare: (s) => {
      home = s.temp.make("hermes-home-", PROTECTED_TEST_HOMES);
      writeTree(home, { "notes/canary.txt": "outside the workspace\n" });
    },
    env: () => ({ HOME: home, OPENAI_API_KEY: KEY }),
  });

  before(async function () {
    const sandbox = await probeSandbox();
    if (!sandbox.available) {
      console.log(`      (skipped: ${sandbox.reason})`);
      this.skip();
    }
  });

  it("runs without asking, sees no key and cannot write outside the workspace", async () => {
    const canary = join(home, "notes", "canary.txt");
    const result = await runScript(
      server,
      [
        "import os",
        "print('key:', os.environ.get('OPENAI_API_KEY'))",
        "try:",
        `    open(${JSON.stringify(canary)}, 'w').write('overwritten')`,
        "    print('wrote HOME')",
        "except OSError as e:",
        "    print('refused:', type(e).__name__)",
        "open('inside.txt', 'w').write('ok')",
      ].join("\n"),
    );
    assert.equal(server.permissions.length, 0, "a contained script does not ask");
    assert.equal(result.status, "success");
    assert.match(String(result.output), /^key: None\nrefused: OSError|^key: None\nrefused: PermissionError/);
    assert.equal(readFileSync(canary, "utf8"), "outside the workspace\n");
    assert.equal(readFileSync(join(server.workspace, "inside.txt"), "utf8"), "ok");
  });

  it("in read-only mode reaches hermes_tools but writes nothing", async () => {
    writeFileSync(join(server.workspace, "a.txt"), "alpha\n");
    const result = await runScript(
      server,
      [
        "from hermes_tools import read_file, write_file",
        "print(read_file('a.txt')['content'])",
        "print(write_file('b.txt', 'x'))",
        "try:",
        "    open('c.txt', 'w').write('x')",
        "except OSError as e:",
        "    print('refused:', type(e).__name__)",
      ].join("\n"),
      "read_only",
    );
    assert.equal(result.status, "success");
    const output = String(result.output);
    assert.ok(output.startsWith("1|alpha\n{'error': "), output);
    assert.match(output, /refused: OSError|refused: PermissionError/);
    assert.equal(existsSync(join(server.workspace, "b.txt")), false);
    assert.equal(existsSync(join(server.workspace, "c.txt")), false);
  });
});

describe("hermes-acp: execute_code's script, with the sandbox off", function () {
  this.timeout(60_000);
  const server = useScriptedServer({ permission: "deny", config: "terminal:\n  sandbox: off\n" });

  it("asks for the whole script, and a no means it never runs", async () => {
    const result = await runScript(server, "open('ran.txt', 'w').write('x')\nprint('ran')");
    assert.equal(server.permissions.length, 1);
    assert.equal(server.permissions[0]!.toolCall.toolCallId, "c_py");
    assert.match(String(server.permissions[0]!.toolCall.title), /script execution via -e\/-c flag/);
    assert.equal(result.status, "error");
    assert.equal(result.tool_calls_made, 0);
    assert.equal(existsSync(join(server.workspace, "ran.txt")), false);
  });
});

import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probeSandbox } from "../../agent/sandbox/sandbox-probe.js";
import { isScriptQuestion, runScript } from "../helpers/execute-code-run.js";
import { type ScriptedServer, useScriptedServer } from "../helpers/scripted-server.js";
import { PROTECTED_TEST_HOMES, writeTree } from "../helpers/temp-dirs.js";

const KEY = "sk-canary-key-0123456789abcdef";

/**
 * The script itself, judged by effect: inside the sandbox it is asked about once, as inline code in the terminal is,
 * and once allowed cannot reach HOME's files or the server's keys; in read-only mode it still reaches the server (the socket sits on a read-only mount) but
 * cannot write; with the sandbox off the gate asks for the script as a whole, and a no stops it.
 */
describe("hermes-acp: execute_code's script, contained", function () {
  this.timeout(60_000);
  let home = "";
  const server: ScriptedServer = useScriptedServer({
    // The script's own question is allowed; anything its calls ask is refused.
    permission: () => (isScriptQuestion(server.permissions.at(-1)) ? "allow_once" : "deny"),
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

  it("asks once for the script, then sees no key and cannot write outside the workspace", async () => {
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
    assert.deepEqual(
      server.permissions.map((p) => isScriptQuestion(p)),
      [true],
      "the script is asked about once, its own writes are held by the sandbox",
    );
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

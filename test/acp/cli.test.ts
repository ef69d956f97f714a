import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { SERVER_BIN, serverEnv } from "../helpers/acp-harness.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string>, cwd?: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SERVER_BIN, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("hermes-acp command line", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("--version prints the package version", async () => {
    const result = await runCli(["--version"], serverEnv(temp.make()));
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^hermes-editor \d+\.\d+\.\d+\n$/);
  });

  it("--check on a good config names the provider, model and key source, never the key, and exits 0", async () => {
    const home = temp.make();
    writeFileSync(join(home, "config.yaml"), "model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4\n");
    writeFileSync(join(home, ".env"), "OPENROUTER_API_KEY=sk-or-v1-supersecretvalue1234567890\n");
    const result = await runCli(["--check"], serverEnv(home));
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /provider: OpenRouter \(openrouter\)/);
    assert.match(result.stdout, /model:    anthropic\/claude-sonnet-4/);
    assert.match(result.stdout, /api key:  found in OPENROUTER_API_KEY/);
    assert.match(result.stdout, /Hermes ACP check OK/);
    assert.ok(!(result.stdout + result.stderr).includes("supersecret"), "the key itself is never printed");
  });

  it("--check says how commands are contained, and says it plainly when they cannot be", async () => {
    const home = temp.make();
    writeFileSync(
      join(home, "config.yaml"),
      "model:\n  provider: openrouter\n  default: some/model\nterminal:\n  sandbox:\n    network: deny\n",
    );
    writeFileSync(join(home, ".env"), "OPENROUTER_API_KEY=sk-or-v1-x\n");
    const none = await runCli(["--check"], serverEnv(home, { HERMES_BWRAP: "/nonexistent/bwrap" }));
    assert.match(none.stdout, /sandbox:  none: .*Commands run unconfined/);
    assert.equal(none.code, 0, "no sandbox is reported, not a failure: the gate still holds");
    writeFileSync(
      join(home, "config.yaml"),
      "model:\n  provider: openrouter\n  default: some/model\nterminal:\n  sandbox: off\n",
    );
    assert.match((await runCli(["--check"], serverEnv(home))).stdout, /sandbox:  off \(terminal.sandbox: off/);
  });

  it("--check lets the process environment win over HERMES_HOME/.env", async () => {
    const home = temp.make();
    writeFileSync(join(home, "config.yaml"), "model:\n  provider: anthropic\n  default: claude-sonnet-4\n");
    const result = await runCli(["--check"], serverEnv(home, { ANTHROPIC_API_KEY: "from-env" }));
    assert.equal(result.code, 0);
    assert.match(result.stdout, /found in ANTHROPIC_API_KEY/);
  });

  it("--check on a broken config names the file and line and exits non-zero", async () => {
    const home = temp.make();
    writeFileSync(join(home, "config.yaml"), "model:\n  provider: openrouter\n\tdefault: oops\n");
    const result = await runCli(["--check"], serverEnv(home));
    assert.equal(result.code, 1);
    assert.ok(result.stdout.includes(`${join(home, "config.yaml")}:3:1: Tabs are not allowed`), result.stdout);
    assert.match(result.stdout, /Hermes ACP check FAILED/);
  });

  it("--check names the line of an unknown provider and a missing key", async () => {
    const home = temp.make();
    writeFileSync(join(home, "config.yaml"), "# mine\nmodel:\n  provider: openrouterr\n  default: x\n");
    const bad = await runCli(["--check"], serverEnv(home));
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /config\.yaml:3:13: unknown provider 'openrouterr'/);

    writeFileSync(join(home, "config.yaml"), "model:\n  provider: deepseek\n  default: deepseek-chat\n");
    const noKey = await runCli(["--check"], serverEnv(home));
    assert.equal(noKey.code, 1);
    assert.match(noKey.stdout, /No API key for DeepSeek: set DEEPSEEK_API_KEY/);
  });

  it("chat runs one turn in the current directory and prints the streamed reply", async () => {
    const llm = await ScriptedLlm.start();
    try {
      llm.enqueue({ kind: "text", chunks: ["Hi from ", "the scripted model."] });
      const home = hermesHomeFor(temp.make(), llm.baseUrl);
      const result = await runCli(["chat", "hello", "there"], serverEnv(home), temp.make());
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "Hi from the scripted model.\n");
      assert.equal(llm.requests[0]!.body.messages.at(-1)!.content, "hello there");
    } finally {
      await llm.close();
    }
  });

  it("chat exits 1 with the provider's error on stdout when the model refuses", async () => {
    const llm = await ScriptedLlm.start();
    try {
      llm.enqueue({ kind: "error", status: 401, message: "bad key" });
      const home = hermesHomeFor(temp.make(), llm.baseUrl);
      const result = await runCli(["chat", "hello"], serverEnv(home));
      assert.equal(result.code, 1);
      assert.match(result.stdout, /HTTP 401/);
    } finally {
      await llm.close();
    }
  });

  it("rejects an unknown command with usage and exit status 2", async () => {
    const result = await runCli(["frobnicate"], serverEnv(temp.make()));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command 'frobnicate'/);
  });
});

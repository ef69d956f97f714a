import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { SERVER_BIN, serverEnv } from "../helpers/acp-harness.js";
import { TempDirs } from "../helpers/temp-dirs.js";

interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built bin with `--setup` and `args`, `stdin` piped in (then closed: a script that answers and ends). */
function runSetup(args: string[], env: Record<string, string>, stdin = ""): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SERVER_BIN, "--setup", ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const KEY = "sk-or-v1-setup-test-key-0123456789abcdef";
const OLD_KEY = "sk-or-v1-the-old-key-9876543210fedcba";

const USER_CONFIG = `# my Hermes settings
model:
  provider: anthropic   # switched often
  default: claude-sonnet-4
  api_mode: anthropic_messages
terminal:
  sandbox: off          # keep this comment
`;

describe("hermes-editor --setup", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  beforeEach(async () => {
    llm = await ScriptedLlm.start();
  });
  afterEach(async () => {
    await llm.close();
    temp.cleanup();
  });

  const modeOf = (file: string): string => (statSync(file).mode & 0o777).toString(8);

  it("driven by flags alone: saves the model and the key, keeps comments and other lines, and the model answers", async () => {
    const home = temp.make();
    writeFileSync(join(home, "config.yaml"), USER_CONFIG);
    writeFileSync(join(home, ".env"), "# my keys\nGITHUB_TOKEN=ghp_unrelated\n", { mode: 0o644 });
    llm.enqueue({ kind: "text", chunks: ["OK"] });
    const args = ["--provider", "openrouter", "--model", "anthropic/claude-sonnet-4"];
    const result = await runSetup([...args, "--api-key-env", "MY_KEY", "--base-url", llm.baseUrl], {
      ...serverEnv(home),
      MY_KEY: KEY,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Works: anthropic\/claude-sonnet-4 answered "OK"\./);
    assert.equal(llm.requests[0]!.headers.authorization, `Bearer ${KEY}`, "the test call used the saved key");
    assert.ok(!(result.stdout + result.stderr).includes(KEY.slice(10)), "no part of the key is printed");

    const dotenv = readFileSync(join(home, ".env"), "utf8");
    assert.equal(dotenv, `# my keys\nGITHUB_TOKEN=ghp_unrelated\nOPENROUTER_API_KEY=${KEY}\n`);
    assert.equal(modeOf(join(home, ".env")), "600", ".env holds keys: readable by its owner only");
    const config = readFileSync(join(home, "config.yaml"), "utf8");
    assert.match(config, /^# my Hermes settings\n/);
    assert.match(config, /provider: openrouter +# switched often\n/);
    assert.match(config, /default: anthropic\/claude-sonnet-4\n/);
    assert.match(config, new RegExp(`base_url: ${llm.baseUrl.replace(/[/.]/g, "\\$&")}\n`));
    assert.ok(!config.includes("api_mode"), "the old provider's api_mode is gone");
    assert.match(config, /sandbox: off +# keep this comment\n/);
  });

  it("driven by piped answers: provider, base URL, model and key, one a line; .env is created with mode 0600", async () => {
    const home = temp.make();
    llm.enqueue({ kind: "text", chunks: ["OK"] });
    const answers = `custom\n${llm.baseUrl}\nscripted-model\n${KEY}\n`;
    const result = await runSetup([], serverEnv(home), answers);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /Provider, by number or name \[openrouter\]:/);
    assert.match(result.stdout, /Saved the key as CUSTOM_API_KEY in .*\.env \(readable by you only\)\./);
    assert.match(result.stdout, /Works: scripted-model answered "OK"\./);
    assert.ok(!(result.stdout + result.stderr).includes(KEY.slice(10)), "the typed key is not echoed");
    assert.equal(readFileSync(join(home, ".env"), "utf8"), `CUSTOM_API_KEY=${KEY}\n`);
    assert.equal(modeOf(join(home, ".env")), "600");
    assert.equal(
      readFileSync(join(home, "config.yaml"), "utf8"),
      `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${llm.baseUrl}\n`,
    );
  });

  it("a local server's own model names are shown and the first offered; it needs no key", async () => {
    const home = temp.make();
    const server = createHttpServer((req, res) => {
      res.writeHead(req.url === "/v1/models" ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "qwen3-coder-30b" }, { id: "llama-3.1-8b" }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const result = await runSetup(["--no-test"], serverEnv(home), `lmstudio\n${url}\n\n\n`);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /serves: qwen3-coder-30b, llama-3\.1-8b\n/);
      assert.match(result.stdout, /Model \[qwen3-coder-30b\]: /);
      assert.match(result.stdout, /Key: none\./);
      assert.equal(
        readFileSync(join(home, "config.yaml"), "utf8"),
        `model:\n  provider: lmstudio\n  default: qwen3-coder-30b\n  base_url: ${url}\n`,
      );
    } finally {
      server.close();
    }
  });

  it("a key the provider refuses (HTTP 401) says the key is wrong, never shows it, and exits 1", async () => {
    const home = temp.make();
    llm.enqueue({ kind: "error", status: 401, message: "Invalid API key" });
    const result = await runSetup(
      ["--provider", "openrouter", "--model", "some/model", "--base-url", llm.baseUrl, "--api-key-env", "K"],
      { ...serverEnv(home), K: KEY },
    );
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /Failed: The API key is wrong: OpenRouter refused it \(HTTP 401\)\. Check the key in OPENROUTER_API_KEY\. The provider said: Invalid API key/,
    );
    assert.ok(!(result.stdout + result.stderr).includes(KEY.slice(10)));
  });

  it("a local endpoint that is not running: connection refused points at the URL; no key is needed", async () => {
    const home = temp.make();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const result = await runSetup(["--provider", "custom", "--base-url", url, "--model", "llama3.1"], serverEnv(home));
    assert.equal(result.code, 1);
    assert.match(result.stdout, /Key: none\./);
    assert.match(
      result.stdout,
      new RegExp(`Failed: Connection refused at 127\\.0\\.0\\.1:${port}: nothing is listening`),
    );
    assert.ok(!existsSync(join(home, ".env")), "no key, no .env");
  });

  it("a different key already in .env is replaced only after a yes (--yes for scripts)", async () => {
    const home = temp.make();
    writeFileSync(join(home, ".env"), `OPENROUTER_API_KEY=${OLD_KEY}\nOTHER=1\n`);
    const args = ["--provider", "openrouter", "--model", "m", "--api-key-env", "K", "--no-test"];
    const refused = await runSetup(args, { ...serverEnv(home), K: KEY }, "n\n");
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stdout, /OPENROUTER_API_KEY in \.env already holds a different key\. Replace it\? \[y\/N\]/);
    assert.match(refused.stdout, /Key: the one in \.env \(OPENROUTER_API_KEY; --yes replaces it\)\./);
    assert.equal(readFileSync(join(home, ".env"), "utf8"), `OPENROUTER_API_KEY=${OLD_KEY}\nOTHER=1\n`);

    const replaced = await runSetup([...args, "--yes"], { ...serverEnv(home), K: KEY });
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.ok(!replaced.stdout.includes("Replace it?"), "--yes asks nothing");
    assert.equal(readFileSync(join(home, ".env"), "utf8"), `OPENROUTER_API_KEY=${KEY}\nOTHER=1\n`);
    assert.ok(!(refused.stdout + replaced.stdout).includes(OLD_KEY.slice(10)));
  });

  it("--api-key works but warns that the key is in the shell history", async () => {
    const home = temp.make();
    const result = await runSetup(["--provider", "deepseek", "--api-key", KEY, "--no-test"], serverEnv(home));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /--api-key is now in your shell history/);
    assert.match(result.stdout, /provider deepseek, model deepseek-chat\./);
    assert.equal(readFileSync(join(home, ".env"), "utf8"), `DEEPSEEK_API_KEY=${KEY}\n`);
    assert.ok(!(result.stdout + result.stderr).includes(KEY.slice(10)));
  });

  it("stdin that ends before a needed answer stops with the flag to give, exit 2, nothing written", async () => {
    const home = temp.make();
    const result = await runSetup(["--provider", "deepseek"], serverEnv(home), "");
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Input ended before an answer to "API key for DeepSeek .*--api-key-env VARIABLE/);
    assert.ok(!existsSync(join(home, "config.yaml")) && !existsSync(join(home, ".env")));
  });

  it("a config.yaml that does not parse is reported with its line before any question; nothing is written", async () => {
    const home = temp.make();
    writeFileSync(join(home, "config.yaml"), "model:\n  provider: openrouter\n\tdefault: x\n");
    const result = await runSetup(["--provider", "deepseek", "--api-key-env", "K"], { ...serverEnv(home), K: KEY });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /config\.yaml:3:1: Tabs are not allowed/);
    assert.ok(!existsSync(join(home, ".env")));
  });

  it("setup flags without --setup are a usage error", async () => {
    const child = spawn(process.execPath, [SERVER_BIN, "--provider", "openrouter"], { env: serverEnv(temp.make()) });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    assert.equal(code, 2);
    assert.match(stderr, /--provider is a flag of --setup/);
  });
});

/** A port nothing listens on (bound once, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

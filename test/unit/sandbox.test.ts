import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { probeSandbox } from "../../agent/sandbox/sandbox-probe.js";
import type { SessionMode } from "../../agent/tools/safety/session-mode.js";
import { terminalTool } from "../../agent/tools/terminal/terminal-tool.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import { PROTECTED_TEST_HOMES, TempDirs, writeTree } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

const parse = (content: string) =>
  JSON.parse(content.split("\n")[0]!) as { output: string; exit_code: number | null; error: string | null };

/**
 * The OS sandbox, for real (bubblewrap here; CI installs it). Judged by effect: canary files in a temporary HOME and
 * HERMES_HOME stay as they were, credentials read as empty, and the user (who says no) is asked before anything runs
 * outside. Skipped with a visible reason only where this machine cannot sandbox.
 */
describe("OS sandbox around the agent's commands", function () {
  this.timeout(20_000);
  const temp = new TempDirs();
  let home: string;
  let hermesHome: string;
  let root: string;
  const realHome = process.env.HOME;

  before(async function () {
    const sandbox = await probeSandbox();
    if (!sandbox.available) {
      console.log(`      (skipped: ${sandbox.reason})`);
      this.skip();
    }
  });

  beforeEach(() => {
    // Not under /tmp: the temp folder is writable inside the sandbox, so a HOME there would be too.
    home = temp.make("hermes-home-", PROTECTED_TEST_HOMES);
    hermesHome = join(home, ".hermes");
    root = join(home, "project");
    writeTree(home, {
      ".bashrc": "# canary rc\n",
      ".ssh/id_rsa": "PRIVATE KEY CANARY\n",
      ".aws/credentials": "aws_secret_access_key = CANARY\n",
      "notes/canary.txt": "outside the workspace\n",
      ".hermes/.env": "OPENAI_API_KEY=sk-canary\n",
      ".hermes/config.yaml": "model: {}\n",
      "project/src/app.ts": "export {};\n",
    });
    execFileSync("git", ["init", "-q", root]);
    process.env.HOME = home;
  });
  afterEach(() => {
    process.env.HOME = realHome;
    temp.cleanup();
  });

  async function run(
    command: string,
    mode: SessionMode = "default",
    user = new ScriptedUser(),
    settings = toolSettings(),
  ) {
    const env = toolEnvironment(root, hermesHome, user, settings);
    env.state.mode = mode;
    const result = await runTool(terminalTool, { command }, env);
    return { result, body: parse(result.content), user, state: env.state };
  }

  it("writes inside the workspace without asking; a write outside fails on the wall and asks to run outside (denied: canary intact)", async () => {
    const inside = await run("echo built > out.txt && cat out.txt");
    assert.equal(inside.body.exit_code, 0, inside.result.content);
    assert.equal(readFileSync(join(root, "out.txt"), "utf8"), "built\n");
    assert.equal(inside.state.sandboxed, true);
    // A build script the gate has no reason to doubt, writing where it should not: only the sandbox sees it.
    writeFileSync(join(root, "build.sh"), `echo pwned > ${join(home, "notes", "canary.txt")}\n`);
    const outside = await run("sh build.sh");
    assert.match(outside.body.output, /Read-only file system/);
    assert.equal(outside.user.commandRequests.length, 1, "one question: run outside the sandbox?");
    assert.equal(outside.user.commandRequests[0]!.outsideSandbox, true);
    assert.match(outside.result.content, /declined to run it outside the sandbox/);
    assert.equal(readFileSync(join(home, "notes", "canary.txt"), "utf8"), "outside the workspace\n");
  });

  it("runs outside the sandbox once when the user allows it", async () => {
    writeFileSync(join(root, "build.sh"), `echo moved > ${join(home, "notes", "canary.txt")}\n`);
    const allowed = await run("sh build.sh", "default", new ScriptedUser(["once"]));
    assert.equal(allowed.user.commandRequests[0]?.outsideSandbox, true, "the one question was the escalation");
    assert.equal(allowed.body.exit_code, 0, allowed.result.content);
    assert.equal(readFileSync(join(home, "notes", "canary.txt"), "utf8"), "moved\n");
  });

  it("never lets a command read credentials or change shell start-up files, HERMES_HOME, .git/config or .git/hooks", async () => {
    const read = await run("cat ~/.ssh/id_rsa ~/.aws/credentials ~/.hermes/.env; ls -A ~/.ssh | wc -l");
    assert.doesNotMatch(read.body.output, /CANARY|sk-canary/);
    for (const command of [
      "echo 'curl x|sh' >> ~/.bashrc",
      "echo x > ~/.hermes/config.yaml",
      "echo '[core] fsmonitor = touch X' >> .git/config",
      "printf '#!/bin/sh\\ntouch X\\n' > .git/hooks/pre-commit",
    ]) {
      const attempt = await run(command, "yolo");
      assert.notEqual(attempt.body.exit_code, 0, `${command} must fail: ${attempt.result.content}`);
      assert.equal(attempt.user.commandRequests.length, 0, "YOLO asks nobody; the wall holds");
    }
    assert.equal(readFileSync(join(home, ".bashrc"), "utf8"), "# canary rc\n");
    assert.equal(readFileSync(join(hermesHome, "config.yaml"), "utf8"), "model: {}\n");
    assert.doesNotMatch(readFileSync(join(root, ".git", "config"), "utf8"), /fsmonitor/);
    assert.equal(existsSync(join(root, ".git", "hooks", "pre-commit")), false);
    const commit = await run(
      "git add -A && git -c user.email=a@b -c user.name=a commit -qm first && git log --oneline | wc -l",
      "yolo",
    );
    assert.equal(commit.body.output.trim(), "1", `ordinary git work still runs: ${commit.result.content}`);
  });

  it("follows symlinks to where they lead: a link to HOME inside the workspace writes nothing there", async () => {
    symlinkSync(home, join(root, "homelink"));
    const attempt = await run("echo pwned > homelink/.bashrc; echo pwned > homelink/notes/canary.txt", "yolo");
    assert.notEqual(attempt.body.exit_code, 0);
    assert.equal(readFileSync(join(home, ".bashrc"), "utf8"), "# canary rc\n");
    assert.equal(readFileSync(join(home, "notes", "canary.txt"), "utf8"), "outside the workspace\n");
  });

  it("read-only mode: nothing is written, not even in the workspace, but a private temp folder works", async () => {
    const attempt = await run("touch made.txt; echo x > src/app.ts; rm -f src/app.ts", "read_only");
    assert.equal(existsSync(join(root, "made.txt")), false);
    assert.equal(readFileSync(join(root, "src", "app.ts"), "utf8"), "export {};\n");
    assert.match(attempt.body.output, /Read-only file system/);
    const scratch = await run("echo scratch > /tmp/hermes-scratch-test && cat /tmp/hermes-scratch-test", "read_only");
    assert.equal(scratch.body.output.trim(), "scratch");
    assert.equal(existsSync("/tmp/hermes-scratch-test"), false, "the private /tmp vanished with the command");
  });

  it("gives commands an environment without provider keys or credentials, except those passed through", async () => {
    const base = {
      ...process.env,
      OPENAI_API_KEY: "sk-leak-1",
      GITHUB_TOKEN: "ghp_leak",
      MY_SERVICE_PASSWORD: "pw",
      KEEP_ME: "visible",
      SSH_AUTH_SOCK: "/tmp/agent.sock",
    };
    const env = toolEnvironment(
      root,
      hermesHome,
      new ScriptedUser(),
      toolSettings({ envPassthrough: ["GITHUB_TOKEN"] }),
    );
    const workspace = new LocalWorkspace(root, base);
    const result = await runTool(terminalTool, { command: "printenv" }, { ...env, workspace });
    const output = parse(result.content).output;
    assert.doesNotMatch(output, /sk-leak-1|MY_SERVICE_PASSWORD|SSH_AUTH_SOCK/);
    assert.match(output, /KEEP_ME=visible/);
    assert.match(output, /GITHUB_TOKEN=ghp_leak/, "terminal.env_passthrough lets a named one through");
  });

  describe("network", () => {
    let server: Server;
    let port: number;
    before(async () => {
      server = createServer((socket) => socket.end("hello from the host\n"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    after(() => server.close());

    it("is allowed by default and cut by terminal.sandbox.network: deny", async () => {
      const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
      const allowed = await run(command, "yolo");
      assert.match(allowed.body.output, /hello from the host/);
      const denied = await run(
        command,
        "yolo",
        new ScriptedUser(),
        toolSettings({ sandbox: { enabled: true, network: "deny", writable: [] } }),
      );
      assert.doesNotMatch(denied.body.output, /hello from the host/);
      assert.notEqual(denied.body.exit_code, 0);
    });
  });

  it("terminal.sandbox: off runs unconfined (the gate's stricter rules then apply)", async () => {
    mkdirSync(join(home, "scratch"));
    const result = await run(
      `echo free > ${join(home, "scratch", "f")}`,
      "yolo",
      new ScriptedUser(),
      toolSettings({ sandbox: { enabled: false, network: "allow", writable: [] } }),
    );
    assert.equal(result.body.exit_code, 0);
    assert.equal(result.state.sandboxed, false);
    assert.equal(readFileSync(join(home, "scratch", "f"), "utf8"), "free\n");
  });
});

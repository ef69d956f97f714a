/**
 * A background shell's stdin is a command line (issue 17: `terminal {command: "bash", background: true}` then
 * `process write "rm -rf ~\n"` deleted HOME unasked). Judged by effect with a real bash: canaries survive, the user
 * was asked, and nothing reached the shell. The OS sandbox is off here so the gate alone is what is tested.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_SANDBOX_SETTINGS } from "../../agent/config/tool-settings.js";
import type { SessionMode } from "../../agent/tools/safety/session-mode.js";
import { processTool } from "../../agent/tools/terminal/process-tool.js";
import { terminalTool } from "../../agent/tools/terminal/terminal-tool.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

describe("process write goes through the command gate", () => {
  const temp = new TempDirs();
  const outsideDirs: string[] = [];
  afterEach(() => {
    temp.cleanup();
    for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function shell(mode: SessionMode = "default") {
    const root = temp.make("hermes-ws-");
    // Outside the workspace and the temp folders (which commands may change freely): under HOME.
    const outside = mkdtempSync(join(homedir(), ".hermes-gate-test-"));
    outsideDirs.push(outside);
    mkdirSync(join(root, "keep"));
    writeFileSync(join(root, "keep", "canary"), "alive\n");
    writeFileSync(join(outside, "canary"), "alive\n");
    const user = new ScriptedUser();
    const settings = toolSettings({ sandbox: { ...DEFAULT_SANDBOX_SETTINGS, enabled: false } });
    const env = toolEnvironment(root, temp.make(), user, settings);
    const started = JSON.parse((await runTool(terminalTool, { command: "bash", background: true }, env)).content) as {
      session_id: string;
    };
    env.state.mode = mode;
    const write = async (data: string) =>
      runTool(processTool, { action: "write", session_id: started.session_id, data }, env);
    const output = async () =>
      (
        JSON.parse((await runTool(processTool, { action: "log", session_id: started.session_id }, env)).content) as {
          output: string;
        }
      ).output;
    const stop = () => runTool(processTool, { action: "kill", session_id: started.session_id }, env);
    return { root, outside, user, env, write, output, stop };
  }

  it("asks before a dangerous line, and a denied line never reaches the shell", async function () {
    this.timeout(10_000);
    const { root, outside, user, write, output, stop } = await shell();
    try {
      const denied = await write("rm -rf keep\n");
      assert.equal(denied.isError, true);
      assert.match(denied.content, /User denied/);
      assert.equal(user.commandRequests[0]!.command, "rm -rf keep\n");
      assert.equal(user.commandRequests[0]!.description, "recursive delete");
      // Outside the workspace: asked, and no "for this session" offered.
      assert.equal((await write(`rm -f ${join(outside, "canary")}\n`)).isError, true);
      assert.equal(user.commandRequests[1]!.allowSession, false);
      // An ordinary line runs without a question.
      assert.equal((await write("echo hello\n")).isError, undefined);
      await sleep(300);
      assert.equal(await output(), "hello\n");
      assert.equal(user.commandRequests.length, 2);
      assert.ok(existsSync(join(root, "keep", "canary")), "the workspace canary survived");
      assert.ok(existsSync(join(outside, "canary")), "the outside canary survived");
    } finally {
      await stop();
    }
  });

  it("judges a line written in pieces as the shell will run it", async function () {
    this.timeout(10_000);
    const { root, user, write, output, stop } = await shell();
    try {
      assert.equal((await write("echo piece; rm")).isError, undefined, "no complete danger yet");
      assert.equal((await write(" -rf keep\n")).isError, true);
      assert.equal(user.commandRequests[0]!.command, "echo piece; rm -rf keep\n");
      // The held-back end of the line never came, so the shell still waits; finishing it harmlessly runs `rm`.
      await write("\n");
      await sleep(300);
      assert.match(await output(), /^piece\n/);
      assert.ok(existsSync(join(root, "keep", "canary")));
    } finally {
      await stop();
    }
  });

  it("never sends a hardline line, and asks nobody", async function () {
    this.timeout(10_000);
    const { user, write, output, stop } = await shell("yolo");
    try {
      const refused = await write("mkfs.ext4 /nonexistent/hermes-test-image\n");
      assert.match(refused.content, /BLOCKED \(hardline\)/);
      const obfuscated = await write("x=mkfs.ext4; $x /nonexistent/hermes-test-image\n");
      assert.match(obfuscated.content, /BLOCKED \(hardline\)/);
      await write("echo after\n");
      await sleep(300);
      assert.equal(await output(), "after\n", "nothing but the allowed line ran");
      assert.equal(user.commandRequests.length, 0);
    } finally {
      await stop();
    }
  });

  it("read-only mode without a sandbox refuses a line that writes", async function () {
    this.timeout(10_000);
    const { root, user, write, stop } = await shell("read_only");
    try {
      const refused = await write("touch made.txt\n");
      assert.match(refused.content, /read-only mode/);
      assert.equal((await write("ls keep\n")).isError, undefined);
      await sleep(300);
      assert.equal(existsSync(join(root, "made.txt")), false);
      assert.equal(user.commandRequests.length, 0);
    } finally {
      await stop();
    }
  });
});

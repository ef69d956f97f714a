import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processTool } from "../../agent/tools/terminal/process-tool.js";
import { cleanTerminalText } from "../../agent/tools/terminal/terminal-text.js";
import { terminalTool } from "../../agent/tools/terminal/terminal-tool.js";
import { markedSleep, markedStillRunningAfter, runningWith } from "../helpers/process-alive.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const parse = (content: string) =>
  JSON.parse(content) as {
    output: string;
    exit_code: number | null;
    error: string | null;
    session_id?: string;
    status?: string;
    new_output?: string;
  };

describe("terminal tool", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("runs a command in the project and returns output and exit code as upstream's JSON", async () => {
    const root = temp.make();
    writeFileSync(join(root, "hello.txt"), "hi there\n");
    const result = await runTool(
      terminalTool,
      { command: "cat hello.txt; echo oops >&2; exit 3" },
      toolEnvironment(root, temp.make()),
    );
    const body = parse(result.content);
    assert.equal(body.exit_code, 3);
    assert.match(body.output, /hi there\noops/);
    assert.equal(result.isError, true);
    const ok = parse(
      (await runTool(terminalTool, { command: "pwd", workdir: "." }, toolEnvironment(root, temp.make()))).content,
    );
    assert.equal(ok.output.trim(), root);
    assert.equal(ok.exit_code, 0);
  });

  it("strips colours and collapses progress redraws", async () => {
    assert.equal(cleanTerminalText("\u001b[31mred\u001b[0m ok\n10%\r50%\r100%\nend"), "red ok\n100%\nend");
    const body = parse(
      (
        await runTool(
          terminalTool,
          { command: "printf '\\033[1;32mgreen\\033[0m\\n'" },
          toolEnvironment(temp.make(), temp.make()),
        )
      ).content,
    );
    assert.equal(body.output, "green\n");
  });

  it("kills a command that runs past its timeout, with everything it started", async function () {
    this.timeout(10_000);
    const root = temp.make();
    const started = Date.now();
    const sleepFor = markedSleep();
    const body = parse(
      (
        await runTool(
          terminalTool,
          { command: `sleep ${sleepFor} & echo started; wait`, timeout: 1 },
          toolEnvironment(root, temp.make()),
        )
      ).content,
    );
    assert.ok(Date.now() - started < 15_000, "the 1 s timeout ends the 30 s sleep");
    assert.match(body.error!, /timed out after 1s/);
    assert.match(body.output, /started/);
    assert.equal(await markedStillRunningAfter(sleepFor), false, "the background child of the shell is gone too");
  });

  it("ends a running `sleep 30` at once when the turn is cancelled", async () => {
    const root = temp.make();
    const controller = new AbortController();
    const sleepFor = markedSleep();
    const run = runTool(
      terminalTool,
      { command: `sleep ${sleepFor} & wait` },
      toolEnvironment(root, temp.make()),
      controller.signal,
    );
    for (let i = 0; i < 100 && runningWith(sleepFor).length === 0; i++) await sleep(20);
    assert.ok(runningWith(sleepFor).length > 0, "the sleep started");
    const started = Date.now();
    controller.abort();
    const body = parse((await run).content);
    assert.ok(Date.now() - started < 15_000, "cancel does not wait for the 30 s command");
    assert.match(body.error!, /cancelled by the user/);
    assert.equal(await markedStillRunningAfter(sleepFor), false);
  });

  it("streams output as it arrives", async () => {
    const seen: string[] = [];
    await runTool(
      terminalTool,
      { command: "echo one; sleep 0.2; echo two" },
      toolEnvironment(temp.make(), temp.make()),
      undefined,
      (t) => seen.push(t),
    );
    assert.deepEqual(seen.join(""), "one\ntwo\n");
    assert.ok(seen.length >= 2);
  });

  it("refuses a missing workdir", async () => {
    const result = await runTool(
      terminalTool,
      { command: "ls", workdir: "nope" },
      toolEnvironment(temp.make(), temp.make()),
    );
    assert.equal(result.isError, true);
    assert.match(result.content, /does not exist/);
  });

  it("never runs hardline commands, whatever the mode", async () => {
    const user = new ScriptedUser(["always"]);
    for (const mode of ["manual", "off"] as const) {
      const env = toolEnvironment(temp.make(), temp.make(), user, toolSettings({ approvalsMode: mode }));
      const body = parse((await runTool(terminalTool, { command: "rm -rf /" }, env)).content);
      assert.match(body.error!, /^BLOCKED \(hardline\): recursive delete of root filesystem\./);
    }
    assert.equal(user.commandRequests.length, 0, "nobody is even asked");
  });

  it("asks before a dangerous command and tells the model plainly when the user denies", async () => {
    const root = temp.make();
    execFileSync("mkdir", ["-p", join(root, "build")]);
    const user = new ScriptedUser(["deny"]);
    const denied = parse(
      (await runTool(terminalTool, { command: "rm -rf ./build" }, toolEnvironment(root, temp.make(), user))).content,
    );
    assert.match(denied.error!, /^BLOCKED: User denied this command\. The user has NOT consented/);
    assert.deepEqual(
      user.commandRequests.map((r) => [r.command, r.description]),
      [["rm -rf ./build", "recursive delete"]],
    );
  });

  it("remembers a session approval and persists an 'always' to command_allowlist", async () => {
    const root = temp.make();
    const home = temp.make();
    const configPath = join(home, "config.yaml");
    writeFileSync(configPath, "# my config\nmodel:\n  default: m\n");
    const user = new ScriptedUser(["session", "always"]);
    const env = toolEnvironment(root, home, user, toolSettings({ configPath }));
    await runTool(terminalTool, { command: "git reset --hard" }, env);
    await runTool(terminalTool, { command: "git reset --hard HEAD" }, env);
    assert.equal(user.commandRequests.length, 1, "the session approval covers the same kind of command");
    await runTool(terminalTool, { command: "chmod 777 x || true" }, env);
    assert.equal(user.commandRequests.length, 2);
    const config = readFileSync(configPath, "utf8");
    assert.match(config, /^# my config/, "comments survive");
    assert.match(config, /command_allowlist:\n {2}- world\/other-writable permissions/);
  });

  it("honours the allowlist and approvals.deny, and blocks when nobody can be asked", async () => {
    const quiet = new ScriptedUser([], [], false);
    const allowed = toolEnvironment(
      temp.make(),
      temp.make(),
      quiet,
      toolSettings({ commandAllowlist: ["git push --force*"] }),
    );
    assert.equal(
      parse(
        (await runTool(terminalTool, { command: "git push --force origin x 2>/dev/null; true" }, allowed)).content,
      ).error?.startsWith("BLOCKED"),
      true,
      "globs never cover compound commands",
    );
    const pushed = parse(
      (await runTool(terminalTool, { command: "git push --force origin nowhere" }, allowed)).content,
    );
    assert.equal(pushed.error, null, "an allowlisted command runs (and fails on its own)");
    const denyEnv = toolEnvironment(
      temp.make(),
      temp.make(),
      new ScriptedUser(["once"]),
      toolSettings({ denyGlobs: ["npm publish*"] }),
    );
    assert.match(
      parse((await runTool(terminalTool, { command: "npm publish --tag x" }, denyEnv)).content).error!,
      /matches the user-defined deny rule 'npm publish\*'/,
    );
    const noOne = parse(
      (await runTool(terminalTool, { command: "git clean -fdx" }, toolEnvironment(temp.make(), temp.make(), quiet)))
        .content,
    );
    assert.match(noOne.error!, /no one is present to approve it/);
  });
});

describe("process tool", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("starts a background command and lists, polls, writes to, waits for and kills it", async function () {
    this.timeout(10_000);
    const env = toolEnvironment(temp.make(), temp.make());
    const started = parse(
      (
        await runTool(
          terminalTool,
          { command: "echo ready; while read line; do echo got:$line; done", background: true },
          env,
        )
      ).content,
    );
    assert.equal(started.status, "running");
    const id = started.session_id!;
    const list = JSON.parse((await runTool(processTool, { action: "list" }, env)).content) as {
      processes: Array<{ session_id: string }>;
    };
    assert.deepEqual(
      list.processes.map((p) => p.session_id),
      [id],
    );
    await sleep(200);
    assert.equal(
      parse((await runTool(processTool, { action: "poll", session_id: id }, env)).content).new_output,
      "ready\n",
    );
    await runTool(processTool, { action: "write", session_id: id, data: "hello\n" }, env);
    await sleep(200);
    assert.equal(
      parse((await runTool(processTool, { action: "poll", session_id: id }, env)).content).new_output,
      "got:hello\n",
      "poll shows only what is new",
    );
    const waited = JSON.parse(
      (await runTool(processTool, { action: "wait", session_id: id, timeout: 1 }, env)).content,
    ) as { note: string; status: string };
    assert.equal(waited.status, "running");
    assert.match(waited.note, /Still running after 1s/);
    const killed = JSON.parse((await runTool(processTool, { action: "kill", session_id: id }, env)).content) as {
      status: string;
    };
    assert.equal(killed.status, "exited");
    const log = JSON.parse((await runTool(processTool, { action: "log", session_id: id }, env)).content) as {
      output: string;
    };
    assert.equal(log.output, "ready\ngot:hello\n");
  });

  it("explains an unknown process id", async () => {
    const result = await runTool(
      processTool,
      { action: "poll", session_id: "proc_nope" },
      toolEnvironment(temp.make(), temp.make()),
    );
    assert.equal(result.isError, true);
    assert.match(result.content, /No background process 'proc_nope'/);
  });
});

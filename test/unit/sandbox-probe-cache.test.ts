import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { forgetSandboxProbe, probeSandbox } from "../../agent/sandbox/sandbox-probe.js";
import {
  forgetWorkingSandbox,
  keepSandboxProbeIn,
  rememberedWorking,
  rememberWorking,
} from "../../agent/sandbox/sandbox-probe-cache.js";
import { executeCodeTool } from "../../agent/tools/code/execute-code-tool.js";
import { terminalTool } from "../../agent/tools/terminal/terminal-tool.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

/**
 * A working sandbox is remembered across processes, so a new server does not spawn bwrap again; judged by how often
 * a stand-in bwrap actually ran (it counts its runs in a file). Linux only: the stand-in is a bwrap.
 */
describe("the sandbox probe remembered across processes", () => {
  const temp = new TempDirs();
  let home: string;
  let runs: string;
  let bwrap: string;
  const newProcess = () => forgetSandboxProbe();
  const spawned = () => (existsSync(runs) ? readFileSync(runs, "utf8").split("\n").filter(Boolean).length : 0);
  /** A bwrap that passes the probe and, for a command (after "--"), fails or runs it as told. */
  const standIn = (probe: "works" | "fails", commands: "run" | "cannot set up" = "run") => {
    writeFileSync(
      bwrap,
      [
        "#!/bin/sh",
        `echo run >> '${runs}'`,
        `for a in "$@"; do if [ "$a" = "--" ]; then break; fi; shift; done`,
        `if [ "$#" -eq 0 ]; then ${probe === "works" ? "exit 0" : "echo 'bwrap: No permissions to create new namespace' >&2; exit 1"}; fi`,
        commands === "run" ? `shift; exec "$@"` : "echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1",
        "",
      ].join("\n"),
    );
    chmodSync(bwrap, 0o755);
  };

  before(function () {
    if (process.platform !== "linux") this.skip();
  });
  beforeEach(() => {
    home = temp.make("hermes-probe-");
    runs = join(home, "runs");
    bwrap = join(home, "bwrap");
    keepSandboxProbeIn(home);
    newProcess();
  });
  afterEach(() => {
    keepSandboxProbeIn(undefined);
    forgetSandboxProbe();
    delete process.env.HERMES_BWRAP;
    temp.cleanup();
  });

  it("spawns the sandbox once: a later process with the same bwrap, kernel and user trusts the record", async () => {
    standIn("works");
    const env = { HERMES_BWRAP: bwrap };
    assert.deepEqual(await probeSandbox(env), { available: true, kind: "bubblewrap", program: bwrap });
    assert.equal(spawned(), 1);
    assert.ok(existsSync(join(home, "cache", "sandbox-probe.json")));
    newProcess();
    assert.deepEqual(await probeSandbox(env), { available: true, kind: "bubblewrap", program: bwrap });
    assert.equal(spawned(), 1, "the second process did not spawn bwrap");
  });

  it("probes again when the program changed, when another program is named, or when nothing is kept", async () => {
    standIn("works");
    await probeSandbox({ HERMES_BWRAP: bwrap });
    newProcess();
    utimesSync(bwrap, new Date(), new Date(Date.now() + 5000));
    await probeSandbox({ HERMES_BWRAP: bwrap });
    assert.equal(spawned(), 2, "a changed bwrap is tried for real");
    const other = join(home, "bwrap2");
    writeFileSync(other, readFileSync(bwrap));
    chmodSync(other, 0o755);
    newProcess();
    await probeSandbox({ HERMES_BWRAP: other });
    assert.equal(spawned(), 3, "another program is tried for real");
    keepSandboxProbeIn(undefined);
    newProcess();
    await probeSandbox({ HERMES_BWRAP: bwrap });
    assert.equal(spawned(), 4, "without a HERMES_HOME to keep it in (tests, --check), every process probes");
  });

  it("never remembers a failure: a machine that cannot sandbox is asked again by every process", async () => {
    standIn("fails");
    const first = await probeSandbox({ HERMES_BWRAP: bwrap });
    assert.equal(first.available, false);
    newProcess();
    assert.equal((await probeSandbox({ HERMES_BWRAP: bwrap })).available, false);
    assert.equal(spawned(), 2);
    assert.equal(existsSync(join(home, "cache", "sandbox-probe.json")), false);
  });

  it("a record older than a week is not trusted", () => {
    standIn("works");
    const day = 24 * 60 * 60 * 1000;
    rememberWorking(bwrap, Date.now() - 8 * day);
    assert.equal(rememberedWorking(bwrap), false);
    rememberWorking(bwrap, Date.now() - 6 * day);
    assert.equal(rememberedWorking(bwrap), true);
    forgetWorkingSandbox();
    assert.equal(rememberedWorking(bwrap), false);
  });

  it("a remembered sandbox that no longer sets up fails the command with bwrap's error and drops the record", async () => {
    standIn("works");
    await probeSandbox({ HERMES_BWRAP: bwrap });
    assert.equal(rememberedWorking(bwrap), true);
    // User namespaces turned off since: bwrap still passes the (remembered) probe, but cannot set up a command.
    standIn("works", "cannot set up");
    rememberWorking(bwrap);
    process.env.HERMES_BWRAP = bwrap;
    newProcess();
    const root = temp.make("hermes-probe-ws-");
    execFileSync("git", ["init", "-q", root]);
    const env = toolEnvironment(root, home, new ScriptedUser(), toolSettings());
    const result = await runTool(terminalTool, { command: "echo hello" }, env);
    const body = JSON.parse(result.content.split("\n")[0]!) as { output: string; exit_code: number };
    assert.equal(body.exit_code, 1);
    assert.match(body.output, /^bwrap: setting up uid map: Permission denied/);
    assert.doesNotMatch(body.output, /hello/, "nothing ran unconfined");
    assert.equal(rememberedWorking(bwrap), false, "the next process probes for real");
  });

  it("so does an execute_code script whose sandbox no longer sets up", async () => {
    standIn("works", "cannot set up");
    rememberWorking(bwrap);
    process.env.HERMES_BWRAP = bwrap;
    const root = temp.make("hermes-probe-ws-");
    execFileSync("git", ["init", "-q", root]);
    const env = toolEnvironment(root, home, new ScriptedUser(["once"]), toolSettings());
    const result = await executeCodeTool.run(
      { code: "print('hello')" },
      {
        ...env,
        signal: new AbortController().signal,
        toolCallId: "call_test",
        progress: () => {},
        // The script makes no tool calls; execute_code only runs where the loop can take them.
        callTool: () => Promise.reject(new Error("no tool calls expected")),
      },
    );
    assert.equal(result.isError, true, result.content);
    assert.match(result.content, /bwrap: setting up uid map: Permission denied/);
    assert.doesNotMatch(result.content, /"output": "hello/, "nothing ran unconfined");
    assert.equal(rememberedWorking(bwrap), false, "the next process probes for real");
  });
});

import { strict as assert } from "node:assert";
import type * as acp from "@agentclientprotocol/sdk";
import {
  CappedOutput,
  commandLine,
  type TerminalDisplay,
  TerminalHandlers,
} from "../../extension/acp/terminal-handlers.js";
import { isRunning } from "../helpers/process-alive.js";

describe("editor terminals (the extension's terminal/* handlers)", () => {
  let terminals: TerminalHandlers;
  afterEach(() => terminals?.dispose());

  it("runs a command, keeps its output and reports its exit; release forgets it", async () => {
    const shown: string[] = [];
    const exits: acp.TerminalExitStatus[] = [];
    const display: TerminalDisplay = { output: (t) => shown.push(t), exited: (s) => exits.push(s) };
    terminals = new TerminalHandlers(() => display);
    const { terminalId } = terminals.create({
      sessionId: "s",
      command: "/bin/sh",
      args: ["-c", "echo out; echo err >&2; exit 4"],
      env: [{ name: "GREETING", value: "x" }],
    });
    assert.deepEqual(await terminals.waitForExit({ sessionId: "s", terminalId }), { exitCode: 4, signal: null });
    const output = terminals.output({ sessionId: "s", terminalId });
    assert.equal(output.truncated, false);
    assert.deepEqual(output.exitStatus, { exitCode: 4, signal: null });
    assert.deepEqual(output.output.split("\n").sort(), ["", "err", "out"]);
    assert.equal(shown.join(""), output.output, "the user saw the same output");
    assert.deepEqual(exits, [{ exitCode: 4, signal: null }]);
    terminals.release({ sessionId: "s", terminalId });
    assert.throws(() => terminals.output({ sessionId: "s", terminalId }), /Resource not found/);
    assert.equal(terminals.outputOf(terminalId), output.output, "the chat card still shows what it printed");
  });

  it("passes env, cwd and runs an args-less command through a shell", async () => {
    terminals = new TerminalHandlers();
    const { terminalId } = terminals.create({
      sessionId: "s",
      command: "echo $GREETING from $(pwd)",
      env: [{ name: "GREETING", value: "hello" }],
      cwd: "/tmp",
    });
    await terminals.waitForExit({ sessionId: "s", terminalId });
    assert.equal(terminals.output({ sessionId: "s", terminalId }).output, "hello from /tmp\n");
  });

  it("kills the whole process group, and release kills a command still running", async () => {
    terminals = new TerminalHandlers();
    const { terminalId } = terminals.create({
      sessionId: "s",
      command: "/bin/sh",
      args: ["-c", "sleep 30 & echo $!; wait"],
    });
    let child = "";
    for (let i = 0; i < 100 && !child; i++) {
      child = terminals.output({ sessionId: "s", terminalId }).output.trim();
      await new Promise((r) => setTimeout(r, 20));
    }
    terminals.kill({ sessionId: "s", terminalId });
    const exit = await terminals.waitForExit({ sessionId: "s", terminalId });
    assert.equal(exit.signal, "SIGTERM");
    for (let i = 0; i < 100 && isRunning(Number(child)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(isRunning(Number(child)), false, "the background sleep went with its group");

    const second = terminals.create({ sessionId: "s", command: "sleep 30" });
    const exited = terminals.waitForExit({ sessionId: "s", terminalId: second.terminalId });
    terminals.release({ sessionId: "s", terminalId: second.terminalId });
    assert.equal((await exited).signal, "SIGTERM");
  });

  it("reports a command that cannot start as exit 127 with the reason", async () => {
    terminals = new TerminalHandlers();
    const { terminalId } = terminals.create({ sessionId: "s", command: "/no/such/program", args: [] });
    assert.equal((await terminals.waitForExit({ sessionId: "s", terminalId })).exitCode, 127);
    assert.match(terminals.output({ sessionId: "s", terminalId }).output, /ENOENT/);
  });

  it("keeps the output within the byte limit by dropping its front at a character boundary", () => {
    const output = new CappedOutput(7);
    output.append("héllo");
    assert.deepEqual([output.text(), output.truncated], ["héllo", false]);
    output.append(" wörld€");
    // 16 bytes; the last 7 start inside "ö": the cut moves to the next whole character.
    assert.deepEqual([output.text(), output.truncated], ["rld€", true]);
    assert.ok(Buffer.byteLength(output.text()) <= 7);
  });

  it("shows a shell line as the user wrote it", () => {
    assert.equal(commandLine({ command: "/bin/bash", args: ["-c", "npm test"] }), "npm test");
    // The agent's sandbox launcher (and the env -u that keeps keys out) is not what the user asked to run.
    const launched = ["--ro-bind", "/", "/", "--chdir", "/w", "--", "/bin/bash", "-c", "npm test"];
    assert.equal(commandLine({ command: "/usr/bin/bwrap", args: launched }), "npm test");
    assert.equal(
      commandLine({ command: "env", args: ["-u", "OPENAI_API_KEY", "/usr/bin/bwrap", ...launched] }),
      "npm test",
    );
    assert.equal(commandLine({ command: "npm", args: ["run", "build"] }), "npm run build");
    assert.equal(commandLine({ command: "ls -la" }), "ls -la");
  });
});

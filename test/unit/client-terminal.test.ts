import { strict as assert } from "node:assert";
import * as acp from "@agentclientprotocol/sdk";
import { ClientTerminalCommand, nextPollMs } from "../../acp-server/editor/client-terminal.js";
import { TerminalLinks } from "../../acp-server/editor/terminal-links.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import type { CommandSpec, RunningCommand } from "../../agent/workspace/workspace.js";
import { onTerminalRequests, TerminalHandlers } from "../../extension/acp/terminal-handlers.js";
import { connectToClient } from "../helpers/acp-pair.js";

/** The extension's real terminal handlers, with terminal/create answered after `createDelayMs` (or refused). */
class SlowTerminals extends TerminalHandlers {
  readonly releasedIds: string[] = [];
  createDelayMs = 0;
  refuse = false;
  async createLater(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    await new Promise((r) => setTimeout(r, this.createDelayMs));
    if (this.refuse) throw acp.RequestError.internalError(undefined, "terminals are disabled here");
    return this.create(params);
  }
  override release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    this.releasedIds.push(params.terminalId);
    return super.release(params);
  }
}

describe("a command in the editor's terminal when terminal/create is slow or refused", () => {
  let terminals: SlowTerminals;
  let pair: ReturnType<typeof connectToClient>;
  const warnings: string[] = [];
  const ranHere: CommandSpec[] = [];
  const announced: acp.SessionUpdate[] = [];

  beforeEach(() => {
    terminals = new SlowTerminals();
    // Registered before onTerminalRequests' own create: the first handler of a method wins.
    const client = acp
      .client({ name: "slow-editor" })
      .onRequest("terminal/create", ({ params }) => terminals.createLater(params));
    pair = connectToClient(onTerminalRequests(client, terminals));
    warnings.length = 0;
    ranHere.length = 0;
    announced.length = 0;
  });
  afterEach(() => {
    pair.close();
    terminals.dispose();
  });

  const start = (command: string) => {
    const links = new TerminalLinks();
    links.attach(async (update) => void announced.push(update));
    const log = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const runLocally = (spec: CommandSpec): RunningCommand => {
      ranHere.push(spec);
      return new LocalWorkspace(process.cwd()).runCommand(spec);
    };
    return new ClientTerminalCommand(
      { command, cwd: process.cwd(), toolCallId: "t1" },
      { client: pair.agent, sessionId: "s", links, log, runLocally, clientTimeoutMs: 150 },
    );
  };

  it("fails the call on a timeout without running the command here, and releases a terminal that arrives late", async () => {
    terminals.createDelayMs = 400;
    const command = start("sleep 30");
    await assert.rejects(
      command.exited,
      /The editor did not open a terminal within 0.15s, so the command was not run here: the editor may still start it/,
    );
    assert.deepEqual(ranHere, [], "not run twice");
    for (let i = 0; i < 100 && terminals.releasedIds.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(terminals.releasedIds, ["term_1"], "the late terminal is released (which stops its command)");
    assert.deepEqual(announced, [], "never shown in the tool call");
    assert.match(
      warnings.join("\n"),
      /the editor opened terminal term_1 after the command was given up on; releasing it/,
    );
  });

  it("runs the command here when the editor answers with an error", async () => {
    terminals.refuse = true;
    const command = start("echo here");
    let output = "";
    command.onOutput((chunk) => (output += chunk));
    assert.deepEqual(await command.exited, { exitCode: 0, signal: null });
    assert.equal(output, "here\n");
    assert.deepEqual(
      ranHere.map((s) => s.command),
      ["echo here"],
    );
  });

  it("answers in time: runs in the editor's terminal, linked to its call and released", async () => {
    terminals.createDelayMs = 10;
    const command = start("echo there");
    let output = "";
    command.onOutput((chunk) => (output += chunk));
    assert.deepEqual(await command.exited, { exitCode: 0, signal: null });
    assert.equal(output, "there\n");
    assert.deepEqual(ranHere, []);
    assert.deepEqual(terminals.releasedIds, ["term_1"]);
    assert.deepEqual(announced, [
      { sessionUpdate: "tool_call_update", toolCallId: "t1", content: [{ type: "terminal", terminalId: "term_1" }] },
    ]);
  });
});

describe("how often the editor's terminal output is read", () => {
  it("every 250 ms while the buffer is small", () => {
    assert.equal(nextPollMs(0, 0, 250), 250);
    assert.equal(nextPollMs(20_000, 20_000, 250), 250);
  });

  it("less often as the buffer grows, up to ~4 s for a full 1 MB one (each read returns all of it)", () => {
    assert.equal(nextPollMs(262_144, 0, 250), 1024);
    assert.equal(nextPollMs(1_048_576, 0, 4000), 4096);
    // A steady ~100 KB/s log with a full buffer: read about every 2.6 s, so ~256 KB arrive between reads.
    assert.equal(Math.round(nextPollMs(1_048_576, 262_144, 2621)), 2621);
  });

  it("often again while the command prints fast, so the editor drops nothing before it is read", () => {
    assert.equal(nextPollMs(1_048_576, 1_000_000, 1000), 262.144);
    assert.equal(nextPollMs(1_048_576, 1_000_000, 250), 250);
  });
});

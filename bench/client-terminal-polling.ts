/**
 * How much `terminal/output` traffic a command in the editor's terminal costs: the server polls the editor for the
 * terminal's output, and every answer carries the editor's whole buffer (up to 1 MB). Runs commands through
 * ClientTerminalCommand against the extension's real terminal handlers over in-memory ACP streams, and reports the
 * bytes the editor sent, the polls, and whether the output the tool collected equals the command's (what the
 * model's result is built from). Run: `npx tsx bench/client-terminal-polling.ts`.
 */
import { execFileSync } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import { ClientTerminalCommand } from "../acp-server/editor/client-terminal.js";
import { TerminalLinks } from "../acp-server/editor/terminal-links.js";
import { OutputCollector } from "../agent/tools/terminal/terminal-text.js";
import { LocalWorkspace } from "../agent/workspace/local-workspace.js";
import { onTerminalRequests, TerminalHandlers } from "../extension/acp/terminal-handlers.js";
import { connectToClient } from "../test/helpers/acp-pair.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
/** `lines` lines of 99 characters, one every `everyMs` ms, from a node child (steady, like a chatty build log). */
const steady = (lines: number, everyMs: number) =>
  `${JSON.stringify(process.execPath)} -e 'let i=0;const t=setInterval(()=>{process.stdout.write(String(i).padStart(8,"0")+"x".repeat(90)+"\\n");if(++i>=${lines})clearInterval(t)},${everyMs})'`;

const CASES = [
  { name: "chatty log, ~100 KB/s for ~5 s (~500 KB)", command: steady(5000, 1) },
  { name: "chatty log, ~100 KB/s for ~12 s (~1.2 MB, past the editor's 1 MB)", command: steady(12000, 1) },
  { name: "quiet: 1 line every 100 ms for 5 s", command: steady(50, 100) },
  { name: "flood: 2.7 MB at once (seq)", command: "echo first; sleep 0.6; seq 1 400000; echo LAST" },
];

async function measure(
  command: string,
): Promise<{ bytes: number; polls: number; seconds: number; exact: boolean; resultSame: boolean }> {
  let polls = 0;
  const terminals = new (class extends TerminalHandlers {
    override output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
      polls++;
      return super.output(params);
    }
  })();
  const client = onTerminalRequests(acp.client({ name: "bench-editor" }), terminals);
  const pair = connectToClient(client);
  const cwd = process.cwd();
  const running = new ClientTerminalCommand(
    { command, cwd, toolCallId: "call-1" },
    {
      client: pair.agent,
      sessionId: "s",
      links: new TerminalLinks(),
      log: silent,
      runLocally: (spec) => new LocalWorkspace(cwd).runCommand(spec),
    },
  );
  let seen = "";
  const collector = new OutputCollector();
  running.onOutput((chunk) => {
    seen += chunk;
    collector.add(chunk);
  });
  const started = performance.now();
  await running.exited;
  const seconds = (performance.now() - started) / 1000;
  const expected = execFileSync("/bin/bash", ["-c", command], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const reference = new OutputCollector();
  reference.add(expected);
  const bytes = pair.bytesFromClient();
  pair.close();
  terminals.dispose();
  return { bytes, polls, seconds, exact: seen === expected, resultSame: collector.text() === reference.text() };
}

async function main(): Promise<void> {
  for (const c of CASES) {
    const r = await measure(c.command);
    const mb = (r.bytes / 1_048_576).toFixed(2);
    console.log(
      `${c.name}: ${mb} MB from the editor in ${r.seconds.toFixed(1)} s (${(r.bytes / 1_048_576 / r.seconds).toFixed(2)} MB/s), ${r.polls} polls; output exact: ${r.exact}; model's result identical: ${r.resultSame}`,
    );
  }
}

void main();

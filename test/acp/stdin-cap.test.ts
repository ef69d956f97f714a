import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { useScriptedServer } from "../helpers/scripted-server.js";

const MiB = 1024 * 1024;

/** Issue 17, item 9: a line over the 64 MiB cap is dropped with an error reply; memory stays bounded; the server answers on. */
describe("hermes-acp: stdin lines over the cap", function () {
  this.timeout(120_000);
  const server = useScriptedServer();

  /** Writes `size` bytes of `fill` after `start` (and `end` after them), in 1 MiB pieces, waiting for the pipe. */
  async function writeLine(start: string, size: number, end: string): Promise<void> {
    const stdin = server.harness.child.stdin;
    const piece = Buffer.alloc(MiB, "x");
    const write = async (data: Buffer | string) => {
      if (!stdin.write(data)) await new Promise((resolve) => stdin.once("drain", resolve));
    };
    await write(start);
    for (let sent = 0; sent < size; sent += MiB)
      await write(sent + MiB <= size ? piece : piece.subarray(0, size - sent));
    if (end) await write(end);
  }

  const errorFor = (id: string) => server.harness.waitForLine((m) => m.id === id && m.error !== undefined, 60_000);
  // Peak resident memory of the server process (Linux): what the dropped line could have cost at most.
  const peakRssMiB = () =>
    Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.harness.child.pid}/status`, "utf8"))![1]) / 1024;

  it("answers an endless 300 MB line at once, keeps memory bounded, then serves the next requests", async () => {
    const linux = process.platform === "linux";
    const before = linux ? peakRssMiB() : 0;
    const head =
      '{"jsonrpc":"2.0","id":"endless","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"';
    await writeLine(head, 300 * MiB, "");
    const reply = await errorFor("endless");
    assert.match(
      String((reply.error as { message: string }).message),
      /exceeds the 67,108,864-byte limit for one message \(session\/prompt\)/,
    );
    if (linux) {
      const growth = peakRssMiB() - before;
      assert.ok(growth < 160, `peak RSS grew by ${growth.toFixed(0)} MiB for a 300 MB line (the cap is 64 MiB)`);
    }
    await writeLine("", 1, '"}]}}\n');
    const sessionId = await server.harness.newSession(server.workspace);
    assert.ok(sessionId, "the server still answers after the dropped line");

    // A complete 70 MB line (over the SDK's default 32 MiB, which used to close the stream), then a 40 MB one under the cap.
    await writeLine(
      '{"jsonrpc":"2.0","id":"big","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"',
      70 * MiB,
      '"}]}}\n',
    );
    assert.match(
      String(((await errorFor("big")).error as { message: string }).message),
      /exceeds the 67,108,864-byte limit/,
    );
    await writeLine(
      `{"jsonrpc":"2.0","id":"under","method":"session/prompt","params":{"sessionId":"no-such-session","prompt":[{"type":"text","text":"`,
      40 * MiB,
      '"}]}}\n',
    );
    await errorFor("under");
    assert.ok(await server.harness.newSession(server.workspace), "and still answers");
  });
});

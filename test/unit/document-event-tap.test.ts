import { strict as assert } from "node:assert";
import { DocumentEventTap } from "../../acp-server/document-event-tap.js";

/** Feeds `text` through a tap in chunks of `size` bytes; returns what came out and which events were handled. */
async function run(text: string, size: number, accept = (method: string) => method !== "document/didChange") {
  const handled: Array<[string, unknown]> = [];
  const tap = new DocumentEventTap((method, params) => {
    if (!accept(method)) return false;
    handled.push([method, params]);
    return true;
  });
  const out: Buffer[] = [];
  tap.on("data", (d: Buffer) => out.push(d));
  const ended = new Promise((resolve) => tap.on("end", resolve));
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) tap.write(bytes.subarray(at, at + size));
  tap.end();
  await ended;
  return { passed: Buffer.concat(out).toString(), handled };
}

const line = (message: object) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;

describe("document event tap (ACP input before the SDK)", () => {
  const prompt = line({ id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: 'mentions "document/didFocus" and é' }] } });
  const focus = (n: number) => line({ method: "document/didFocus", params: { sessionId: "s", uri: "file:///a", position: { line: n, character: 0 } } });
  const change = line({ method: "document/didChange", params: { sessionId: "s" } });
  const request = line({ id: 2, method: "document/didOpen", params: {} });
  const text = [focus(1), prompt, focus(2), change, "not json \"document/did\n", request, focus(3), "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\""].join("");

  it("takes the document events it handles, in order, and passes every other byte through unchanged, whatever the chunking", async () => {
    for (const size of [1, 2, 3, 7, 64, 100, 4096]) {
      const { passed, handled } = await run(text, size);
      assert.equal(passed, [prompt, change, "not json \"document/did\n", request, "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\""].join(""), `chunks of ${size}`);
      assert.deepEqual(handled.map(([, params]) => (params as { position: { line: number } }).position.line), [1, 2, 3], `chunks of ${size}`);
    }
  });

  it("leaves requests, unparsable lines and events it declines to the SDK", async () => {
    const { passed, handled } = await run(request + change, 5);
    assert.equal(passed, request + change);
    assert.deepEqual(handled, []);
  });
});

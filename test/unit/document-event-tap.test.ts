import { strict as assert } from "node:assert";
import { DocumentEventTap, type OversizedReply } from "../../acp-server/rpc/document-event-tap.js";
import { readJsonRpcHead } from "../../acp-server/rpc/jsonrpc-head.js";

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
  const prompt = line({
    id: 1,
    method: "session/prompt",
    params: { sessionId: "s", prompt: [{ type: "text", text: 'mentions "document/didFocus" and é' }] },
  });
  const focus = (n: number) =>
    line({
      method: "document/didFocus",
      params: { sessionId: "s", uri: "file:///a", position: { line: n, character: 0 } },
    });
  const change = line({ method: "document/didChange", params: { sessionId: "s" } });
  const request = line({ id: 2, method: "document/didOpen", params: {} });
  const text = [
    focus(1),
    prompt,
    focus(2),
    change,
    'not json "document/did\n',
    request,
    focus(3),
    '{"jsonrpc":"2.0","method":"session/cancel"',
  ].join("");

  it("takes the document events it handles, in order, and passes every other byte through unchanged, whatever the chunking", async () => {
    for (const size of [1, 2, 3, 7, 64, 100, 4096]) {
      const { passed, handled } = await run(text, size);
      assert.equal(
        passed,
        [prompt, change, 'not json "document/did\n', request, '{"jsonrpc":"2.0","method":"session/cancel"'].join(""),
        `chunks of ${size}`,
      );
      assert.deepEqual(
        handled.map(([, params]) => (params as { position: { line: number } }).position.line),
        [1, 2, 3],
        `chunks of ${size}`,
      );
    }
  });

  it("leaves requests, unparsable lines and events it declines to the SDK", async () => {
    const { passed, handled } = await run(request + change, 5);
    assert.equal(passed, request + change);
    assert.deepEqual(handled, []);
  });

  describe("lines over the cap", () => {
    /** Feeds `text` in chunks of `size` through a tap capped at `max` bytes a line; returns what passed and the replies. */
    async function capped(text: string, size: number, max: number) {
      const replies: OversizedReply[] = [];
      const tap = new DocumentEventTap(() => false, { maxLineBytes: max, reply: (m) => replies.push(m) });
      const out: Buffer[] = [];
      tap.on("data", (d: Buffer) => out.push(d));
      const ended = new Promise((resolve) => tap.on("end", resolve));
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; at += size) tap.write(bytes.subarray(at, at + size));
      tap.end();
      await ended;
      return { passed: Buffer.concat(out).toString(), replies };
    }
    const big = "x".repeat(500);
    const request = line({
      id: 7,
      method: "session/prompt",
      params: { sessionId: "s", prompt: [{ type: "text", text: big }] },
    });
    const response = line({ id: 3, result: { content: big } });
    const notification = line({ method: "session/cancel", params: { sessionId: big } });
    const small = line({ id: 8, method: "session/list", params: {} });

    it("drops an oversized request with an error reply carrying its id, and passes the next line, whatever the chunking", async () => {
      for (const size of [1, 7, 64, 256, 4096]) {
        const { passed, replies } = await capped(request + small + notification + small, size, 200);
        assert.equal(passed, small + small, `chunks of ${size}`);
        assert.deepEqual(
          replies.map((r) => [r.id, r.error.code]),
          [[7, -32600]],
          `chunks of ${size}`,
        );
        assert.match(replies[0]!.error.message, /exceeds the 200-byte limit for one message \(session\/prompt\)/);
      }
    });

    it("turns an oversized response into an error response for the same id, so our request fails at once", async () => {
      const { passed, replies } = await capped(response + small, 16, 200);
      assert.deepEqual(replies, []);
      const [first, second] = passed.split("\n");
      assert.deepEqual(JSON.parse(first!), {
        jsonrpc: "2.0",
        id: 3,
        error: {
          code: -32600,
          message: "The client's reply exceeded the 200-byte limit for one message and was dropped.",
        },
      });
      assert.equal(`${second}\n`, small);
    });

    it("answers an endless line at once with id null when none can be read, and keeps nothing of it", async () => {
      const endless = "[" + "1,".repeat(50_000);
      const { passed, replies } = await capped(endless, 1000, 200);
      assert.equal(passed, "");
      assert.deepEqual(
        replies.map((r) => r.id),
        [null],
      );
    });
  });

  it("reads the id and method of a message from its head, at the top level only", () => {
    assert.deepEqual(readJsonRpcHead('{"jsonrpc":"2.0","id":"a\\"b","method":"session/prompt","params":{"x":'), {
      id: 'a"b',
      method: "session/prompt",
      answer: false,
    });
    assert.deepEqual(readJsonRpcHead('{"jsonrpc":"2.0","params":{"id":5,"s":"}"},"method":"m","id":9}'), {
      id: 9,
      method: "m",
      answer: false,
    });
    assert.deepEqual(readJsonRpcHead('{"jsonrpc":"2.0","params":{"id":5,"text":"xxxx'), { answer: false });
    assert.deepEqual(readJsonRpcHead('{"id":12'), { answer: false }, "a number cut by the head is not trusted");
    assert.deepEqual(readJsonRpcHead('{"jsonrpc":"2.0","id":4,"result":{"content":"xx'), { id: 4, answer: true });
  });
});

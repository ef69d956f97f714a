import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { fetchLimited } from "../../agent/web/http-fetch.js";

// The page body each content-encoding is served with; http-fetch loads node:zlib only when a page is compressed.
const PAGE = "Tide tables: high water twice a day. ".repeat(200);
const ENCODED: Readonly<Record<string, Buffer>> = {
  gzip: gzipSync(PAGE),
  deflate: deflateSync(PAGE),
  br: brotliCompressSync(PAGE),
  identity: Buffer.from(PAGE),
};
// Random bytes do not compress, so half of this body is many chunks of a stream the decoder cannot finish.
const STALLED = gzipSync(randomBytes(256 * 1024));

describe("web fetch: compressed pages", () => {
  let server: Server;
  let base: string;
  const never = new AbortController().signal;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === "/gzip-stalls") {
        // Half of a gzip body, then silence with the connection held open: the reader must give up on its own.
        res.writeHead(200, {
          "content-type": "text/plain",
          "content-encoding": "gzip",
          "content-length": String(STALLED.length),
        });
        res.write(STALLED.subarray(0, STALLED.length >> 1));
        return;
      }
      if (req.url === "/gzip-aborts") {
        res.writeHead(200, {
          "content-type": "text/plain",
          "content-encoding": "gzip",
          "content-length": String(STALLED.length),
        });
        res.write(STALLED.subarray(0, STALLED.length >> 1), () => setTimeout(() => res.socket?.destroy(), 50));
        return;
      }
      const encoding = req.url!.slice(1);
      res.writeHead(200, {
        "content-type": "text/plain; charset=utf-8",
        ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
      });
      res.end(ENCODED[encoding]);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  for (const encoding of Object.keys(ENCODED)) {
    it(`reads a ${encoding} page as its text`, async () => {
      const page = await fetchLimited(`${base}/${encoding}`, { signal: never, timeoutMs: 5_000, maxBytes: 1_000_000 });
      assert.equal(page.status, 200);
      assert.equal(page.body.toString("utf8"), PAGE);
      assert.equal(page.truncated, false);
    });
  }

  it("caps a compressed page after decompressing it", async () => {
    const page = await fetchLimited(`${base}/gzip`, { signal: never, timeoutMs: 5_000, maxBytes: 100 });
    assert.equal(page.body.toString("utf8"), PAGE.slice(0, 100));
    assert.equal(page.truncated, true);
  });

  it("gives up on a compressed body that stalls halfway at the deadline", async () => {
    const started = Date.now();
    await assert.rejects(fetchLimited(`${base}/gzip-stalls`, { signal: never, timeoutMs: 400, maxBytes: 10_000_000 }), {
      message: "timed out after 0.4 s",
    });
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  });

  it("gives up on a compressed body that stalls halfway when the call is cancelled", async () => {
    const cancel = new AbortController();
    const pending = fetchLimited(`${base}/gzip-stalls`, {
      signal: cancel.signal,
      timeoutMs: 60_000,
      maxBytes: 10_000_000,
    });
    setTimeout(() => cancel.abort(), 300);
    const started = Date.now();
    await assert.rejects(pending, { message: "cancelled" });
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  });

  it("reports a compressed body whose connection drops halfway instead of waiting for it", async () => {
    const started = Date.now();
    await assert.rejects(
      fetchLimited(`${base}/gzip-aborts`, { signal: never, timeoutMs: 60_000, maxBytes: 10_000_000 }),
      { message: "the connection was reset by the server" },
    );
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  });
});

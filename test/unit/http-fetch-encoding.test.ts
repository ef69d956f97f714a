import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { fetchLimited } from "../../agent/tools/web/http-fetch.js";

// The page body each content-encoding is served with; http-fetch loads node:zlib only when a page is compressed.
const PAGE = "Tide tables: high water twice a day. ".repeat(200);
const ENCODED: Readonly<Record<string, Buffer>> = {
  gzip: gzipSync(PAGE),
  deflate: deflateSync(PAGE),
  br: brotliCompressSync(PAGE),
  identity: Buffer.from(PAGE),
};

describe("web fetch: compressed pages", () => {
  let server: Server;
  let base: string;
  const never = new AbortController().signal;

  before(async () => {
    server = createServer((req, res) => {
      const encoding = req.url!.slice(1);
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", ...(encoding === "identity" ? {} : { "content-encoding": encoding }) });
      res.end(ENCODED[encoding]);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
});

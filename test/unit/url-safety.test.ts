import { strict as assert } from "node:assert";
import dnsPromises from "node:dns/promises";
import { syncBuiltinESMExports } from "node:module";
import { runWebExtract } from "../../agent/tools/web/web-extract-tool.js";
import { runWebSearch } from "../../agent/tools/web/web-search-tool.js";
import { addressBlockReason } from "../../agent/web/url-safety.js";
import type { FakeWeb } from "../fixtures/fake-web.js";
import { WebToolHarness } from "../helpers/web-tool-harness.js";

describe("web tools (web_search, web_extract)", () => {
  const harness = new WebToolHarness();
  const { never, settings, fetcher, extract } = harness;
  let web: FakeWeb;
  beforeEach(async () => ({ web } = await harness.start()));
  afterEach(() => harness.stop());

  describe("web_extract", () => {
    it("refuses loopback and private addresses unless allowed, and cloud metadata always, redirects included", async () => {
      const closed = await extract(
        [`${web.baseUrl}/article`, "http://localhost:9/", "http://[::ffff:127.0.0.1]/", "http://10.1.2.3/"],
        settings(),
      );
      assert.equal(closed.result.isError, true);
      for (const page of closed.pages)
        assert.match(page.error!, /Blocked: URL targets a private or internal network address/);
      assert.equal(web.requests.length, 0);
      const metadata = await extract([`${web.baseUrl}/to-metadata`, "http://169.254.169.254/latest/"]);
      assert.match(
        metadata.pages[0]!.error!,
        /Blocked: URL targets a cloud metadata or link-local address \(redirected to http:\/\/169\.254\.169\.254/,
      );
      assert.match(metadata.pages[1]!.error!, /cloud metadata/);
    });

    it("refuses a private host even when an unguarded SearXNG call left a keep-alive connection to it open", async () => {
      // A name, not a literal IP: literal private IPs are refused before any socket; names are checked at connect time.
      const host = web.baseUrl.replace("127.0.0.1", "localhost");
      const s = settings("", { SEARXNG_URL: host });
      assert.equal((await runWebSearch("tides", 1, s, never)).isError, undefined);
      const { pages } = await extract([`${host}/article`], s);
      assert.match(
        pages[0]!.error!,
        /^Fetch failed: Blocked: URL targets a private or internal network address \(localhost resolves to 127\.0\.0\.1\)$/,
      );
      assert.deepEqual(
        web.requests.map((r) => r.path),
        ["/search?q=tides&format=json&pageno=1"],
      );
    });

    it("judges NAT64 addresses (64:ff9b::/96) by the IPv4 address they carry", async () => {
      for (const private4 of [
        "64:ff9b::7f00:1",
        "64:ff9b::10.1.2.3",
        "[64:FF9B::C0A8:0101]",
        "0064:ff9b:0:0:0:0:ac10:1",
      ]) {
        assert.equal(
          addressBlockReason(private4, false),
          "Blocked: URL targets a private or internal network address",
          private4,
        );
        assert.equal(addressBlockReason(private4, true), undefined, private4);
      }
      assert.equal(
        addressBlockReason("64:ff9b::a9fe:a9fe", true),
        "Blocked: URL targets a cloud metadata or link-local address",
      );
      assert.equal(
        addressBlockReason("64:ff9b::8.8.8.8", false),
        undefined,
        "a public host through NAT64 stays reachable",
      );
      assert.equal(
        addressBlockReason("::ffff:7f00:1", false),
        "Blocked: URL targets a private or internal network address",
      );
      const { pages } = await extract([`http://[64:ff9b::7f00:1]:${new URL(web.baseUrl).port}/article`], settings());
      assert.equal(pages[0]!.error, "Blocked: URL targets a private or internal network address");
    });

    it("judges 6to4 (2002::/16) and Teredo (2001:0::/32) addresses by the IPv4 address they carry", async () => {
      // 6to4 carries it in bits 16-48; Teredo carries the client's address in the last 32 bits, inverted.
      for (const private4 of [
        "2002:7f00:1::",
        "2002:a01:203::1",
        "[2002:C0A8:0101::]",
        "2001:0:4136:e378:8000:63bf:80ff:fffe",
        "2001::f5fe:fdfc",
      ]) {
        assert.equal(
          addressBlockReason(private4, false),
          "Blocked: URL targets a private or internal network address",
          private4,
        );
        assert.equal(addressBlockReason(private4, true), undefined, private4);
      }
      for (const metadata of ["2002:a9fe:a9fe::", "2001:0:4136:e378:8000:63bf:5601:5601"]) {
        assert.equal(
          addressBlockReason(metadata, true),
          "Blocked: URL targets a cloud metadata or link-local address",
          metadata,
        );
      }
      for (const public4 of ["2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"]) {
        assert.equal(addressBlockReason(public4, false), undefined, `${public4} carries 8.8.8.8`);
      }
      assert.equal(
        addressBlockReason("2001:db8::7f00:1", false),
        "Blocked: URL targets a private or internal network address",
        "documentation range, not Teredo",
      );
      const { pages } = await extract([`http://[2002:7f00:1::]:${new URL(web.baseUrl).port}/article`], settings());
      assert.equal(pages[0]!.error, "Blocked: URL targets a private or internal network address");
    });

    it("stops waiting for the Tavily address check when the turn is cancelled", async () => {
      // A resolver that never answers, for as long as this test runs.
      const realLookup = dnsPromises.lookup;
      dnsPromises.lookup = (() => new Promise(() => {})) as unknown as typeof dnsPromises.lookup;
      syncBuiltinESMExports();
      try {
        const s = settings("", { TAVILY_API_KEY: "tvly-k", TAVILY_BASE_URL: `${web.baseUrl}/tavily` });
        const cancel = new AbortController();
        setTimeout(() => cancel.abort(), 100);
        const started = Date.now();
        const result = await runWebExtract(["https://never-resolves.example/page"], s, cancel.signal);
        assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
        assert.deepEqual(JSON.parse(result.content), { success: false, error: "Interrupted" });
        assert.equal(web.requests.length, 0);
      } finally {
        dnsPromises.lookup = realLookup;
        syncBuiltinESMExports();
      }
    });

    it("refuses the whole call when a URL carries a secret", async () => {
      for (const url of [`${web.baseUrl}/a?token=abc123`, `${web.baseUrl}/sk-abcdefghijklmnopqrstu`]) {
        const result = await runWebExtract([url], fetcher(), never);
        assert.equal(result.isError, true);
        assert.match(JSON.parse(result.content).error, /^Blocked: URL contains/);
      }
      assert.equal(web.requests.length, 0);
    });
  });
});

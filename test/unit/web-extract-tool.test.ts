import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { runWebExtract } from "../../agent/tools/web/web-extract-tool.js";
import { webSearchTool } from "../../agent/tools/web/web-search-tool.js";
import type { FakeWeb } from "../fixtures/fake-web.js";
import { writeTree } from "../helpers/temp-dirs.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";
import { type Extracted, unwrap, WebToolHarness } from "../helpers/web-tool-harness.js";

describe("web tools (web_search, web_extract)", () => {
  const harness = new WebToolHarness();
  const { temp, settings, fetcher, extract } = harness;
  let web: FakeWeb;
  let home: string;
  beforeEach(async () => ({ web, home } = await harness.start()));
  afterEach(() => harness.stop());

  describe("web_extract", () => {
    it("turns a page into Markdown without scripts, styles, navigation, hidden text or base64 blobs", async () => {
      const { pages, result } = await extract([`${web.baseUrl}/redirect`]);
      assert.equal(result.isError, undefined);
      const page = pages[0]!;
      assert.equal(page.url, `${web.baseUrl}/article`);
      assert.equal(page.title, "Tide tables & you");
      assert.equal(page.error, null);
      assert.match(
        page.content,
        /^# Reading tide tables\n\nHigh water comes twice a day\. See \[the almanac\]\(https:\/\/example\.org\/tides\)\./,
      );
      assert.match(page.content, /\* Spring tides\n\* Neap tides/);
      assert.match(page.content, /\[IMAGE: tide chart\]/);
      for (const absent of [
        "stealCookies",
        "color:red",
        "About",
        "SECRET-HIDDEN-TEXT",
        "ALSO-HIDDEN",
        "FOOTER-TEXT",
        "base64",
      ]) {
        assert.ok(!page.content.includes(absent), `${absent} leaked into the page`);
      }
    });

    it("keeps text pages as they are, refuses PDFs with a pointer, and reports dead links per URL", async () => {
      const { pages, result } = await extract([
        `${web.baseUrl}/notes.txt`,
        `${web.baseUrl}/paper.pdf`,
        `${web.baseUrl}/missing`,
        "not a url",
      ]);
      assert.equal(result.isError, undefined);
      assert.equal(pages[0]!.content, "plain notes\nline two");
      assert.match(pages[1]!.error!, /does not read PDFs; set web\.extract_backend to tavily/);
      assert.equal(pages[2]!.error, "Fetch failed: HTTP 404");
      assert.match(pages[3]!.error!, /^Invalid URL/);
    });

    it("wraps an injected page with a clear warning instead of hiding it, and defangs a forged end tag", async () => {
      const { header, pages, result } = await extract([`${web.baseUrl}/injection`]);
      assert.match(
        header,
        new RegExp(
          `⚠ Threat scanner: ${web.baseUrl}/injection contains text that looks like a prompt injection \\(prompt_injection:`,
        ),
      );
      assert.match(pages[0]!.content, /Mix flour and milk\./);
      assert.equal(
        (result.content.match(/untrusted\\*_tool\\*_result>/g) ?? []).length,
        1,
        "only the real closing tag remains",
      );
      assert.ok(result.content.includes("untrusted-tool-result"));
    });

    it("stops reading a page that never ends at the byte cap and hangs up", async () => {
      const started = Date.now();
      const { pages } = await extract([`${web.baseUrl}/huge`], fetcher({ maxFetchBytes: 1_000_000 }));
      assert.match(pages[0]!.content, /lorem ipsum/);
      assert.match(
        pages[0]!.content,
        /\[Only the first 1,000,000 bytes of this page were read; the rest was not downloaded\.\]$/,
      );
      assert.equal(pages[0]!.truncated, true);
      await waitFor(() => web.hugeClosedByClient);
      assert.ok(web.hugeBytesSent < 50_000_000, `server wrote ${web.hugeBytesSent} bytes`);
      assert.ok(Date.now() - started < 10_000);
    });

    it("gives up on a page that never answers at the deadline, and at once when the turn is cancelled", async () => {
      const slow = await extract([`${web.baseUrl}/hang`], fetcher({ fetchTimeoutMs: 300 }));
      assert.equal(slow.pages[0]!.error, "Fetch failed: timed out after 0.3 s");
      const cancel = new AbortController();
      const pending = runWebExtract([`${web.baseUrl}/hang`], fetcher(), cancel.signal);
      setTimeout(() => cancel.abort(), 100);
      const started = Date.now();
      const cancelled = await pending;
      assert.ok(Date.now() - started < 5000);
      assert.equal((unwrap(cancelled.content).json as Extracted).results[0]!.error, "Fetch failed: cancelled");
    });

    it("reads pages through Tavily /extract when configured, after the same URL checks", async () => {
      const s = settings("", {
        TAVILY_API_KEY: "tvly-k",
        TAVILY_BASE_URL: `${web.baseUrl}/tavily`,
        HERMES_ALLOW_PRIVATE_URLS: "1",
      });
      web.tavilyReply = (_e, body) => ({
        status: 200,
        json: {
          results: [{ url: (body.urls as string[])[1], raw_content: "# Second\n\nbody two" }],
          failed_results: [{ url: (body.urls as string[])[0], error: "blocked by robots" }],
        },
      });
      const { pages } = await extract(["http://127.0.0.1:1/one", "http://127.0.0.1:1/two"], s);
      assert.deepEqual(JSON.parse(web.requests[0]!.body), {
        urls: ["http://127.0.0.1:1/one", "http://127.0.0.1:1/two"],
        include_images: false,
        api_key: "tvly-k",
      });
      assert.deepEqual(
        pages.map((p) => [p.url, p.error, p.content]),
        [
          ["http://127.0.0.1:1/one", "blocked by robots", ""],
          ["http://127.0.0.1:1/two", null, "# Second\n\nbody two"],
        ],
      );
      const closed = settings("", { TAVILY_API_KEY: "tvly-k", TAVILY_BASE_URL: `${web.baseUrl}/tavily` });
      assert.match((await extract(["http://127.0.0.1:1/one"], closed)).pages[0]!.error!, /private or internal/);
    });

    it("reads settings from HERMES_HOME for each call, so a key added to .env needs no restart", async () => {
      writeTree(home, { ".env": `SEARXNG_URL=${web.baseUrl}\n` });
      const result = await runTool(webSearchTool, { query: "tides", limit: 1 }, toolEnvironment(temp.make(), home));
      assert.equal((unwrap(result.content).json as { data: { web: unknown[] } }).data.web.length, 1);
      assert.ok(!existsSync(`${home}/cache`));
    });
  });
});

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

import { strict as assert } from "node:assert";
import { webSearchTool } from "../../agent/tools/web/web-search-tool.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";
import { WebToolHarness } from "../helpers/web-tool-harness.js";

describe("web tools (web_search, web_extract)", () => {
  const harness = new WebToolHarness();
  const { temp, settings } = harness;
  let home: string;
  beforeEach(async () => ({ home } = await harness.start()));
  afterEach(() => harness.stop());

  describe("backend selection", () => {
    it("says plainly that no search backend is configured, and which upstream backends are not supported", async () => {
      const saved = { SEARXNG_URL: process.env.SEARXNG_URL, TAVILY_API_KEY: process.env.TAVILY_API_KEY };
      delete process.env.SEARXNG_URL;
      delete process.env.TAVILY_API_KEY;
      try {
        const result = await runTool(webSearchTool, { query: "tides" }, toolEnvironment(temp.make(), home));
        assert.equal(result.isError, true);
        const error = JSON.parse(result.content) as { success: boolean; error: string };
        assert.equal(error.success, false);
        assert.match(error.error, /^No web search backend configured\. Set SEARXNG_URL .* or TAVILY_API_KEY/);
        assert.match(error.error, /Firecrawl, Exa and Parallel are not supported/);
      } finally {
        Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
      }
      const exaOnly = settings("", { EXA_API_KEY: "x" });
      assert.ok(
        !exaOnly.search.ok && exaOnly.search.problem.includes("EXA_API_KEY is set, but Exa is not supported here."),
      );
    });

    it("follows web.backend / search_backend / extract_backend and names what cannot work", () => {
      const firecrawl = settings("web:\n  backend: firecrawl\n");
      assert.ok(
        !firecrawl.search.ok &&
          /web\.backend is set to 'firecrawl', but Firecrawl is not supported/.test(firecrawl.search.problem),
      );
      assert.ok(!firecrawl.extract.ok);
      const both = settings("", { SEARXNG_URL: "http://s.example/", TAVILY_API_KEY: "k" });
      assert.deepEqual(
        [both.search, both.extract],
        [
          { ok: true, name: "tavily" },
          { ok: true, name: "tavily" },
        ],
      );
      assert.equal(both.searxngUrl, "http://s.example");
      // SearXNG cannot read pages: with it as the shared backend, pages come from the plain fetcher.
      const searx = settings("web:\n  backend: searxng\n", { SEARXNG_URL: "http://s.example" });
      assert.deepEqual(
        [searx.search, searx.extract],
        [
          { ok: true, name: "searxng" },
          { ok: true, name: "local" },
        ],
      );
      const searchOnly = settings("web:\n  extract_backend: searxng\n");
      assert.ok(!searchOnly.extract.ok && searchOnly.extract.problem.startsWith("SearXNG is a search-only backend"));
      const missingUrl = settings("web:\n  search_backend: searxng\n");
      assert.ok(!missingUrl.search.ok && missingUrl.search.problem.includes("SEARXNG_URL is not set"));
      assert.deepEqual(settings().extract, { ok: true, name: "local" });
      assert.equal(settings("web:\n  extract_char_limit: 10\n").extractCharLimit, 2000);
      assert.equal(settings("web:\n  extract_char_limit: 9000000\n").extractCharLimit, 500_000);
      assert.equal(settings("security:\n  allow_private_urls: true\n").allowPrivateUrls, true);
      assert.equal(
        settings("security:\n  allow_private_urls: true\n", { HERMES_ALLOW_PRIVATE_URLS: "false" }).allowPrivateUrls,
        false,
      );
    });
  });
});

import { strict as assert } from "node:assert";
import { htmlToMarkdown, replaceDataImages, titleOf } from "../../agent/web/html-to-markdown.js";

/** A page's worth (2 MB) of one pattern repeated: the shape that makes a backtracking regex quadratic. */
const repeated = (unit: string, size = 2_000_000) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Runs `work` and fails when it held the event loop longer than `limitMs` (generous: the quadratic forms took minutes). */
async function within<T>(limitMs: number, label: string, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const took = performance.now() - started;
  assert.ok(took < limitMs, `${label} took ${Math.round(took)} ms`);
  return result;
}

describe("web tools: hostile page text", () => {
  it("finds the title without rescanning a page of repeated '<title'", async () => {
    for (const unit of ["<title", "<title ", "<title>", "</title>", "<title>&#x1", "<title>&aaaa"]) {
      await within(2_000, JSON.stringify(unit), () => titleOf(repeated(unit)));
    }
    assert.equal(titleOf("<html><head><TITLE lang=en>\n Tide &amp; you&#x21; </title></head>"), "Tide & you!");
    assert.equal(titleOf("<titles>not a title</titles>"), "");
  });

  it("replaces inline images without rescanning a page of repeated 'data:image/x ' or '!['", async () => {
    for (const unit of [
      "data:image/x ",
      "data:image/x",
      "(data:image/x ",
      "![",
      "![x](",
      "( ",
      "(data:image/png;base64,A",
      "![](data:image/png;base64,AAAA",
      "data:image/png;base64,AAAA ",
    ]) {
      await within(2_000, JSON.stringify(unit), () => replaceDataImages(repeated(unit)));
    }
    assert.equal(
      replaceDataImages(
        "a ![chart](data:image/png;base64,iVBO Rw==) b (data:image/svg+xml;base64,QQ==) c data:image/gif;base64,R0lG d ![](data:image/png;base64,AA==)",
      ),
      "a [IMAGE: chart] b [IMAGE] c [IMAGE] d [IMAGE]",
    );
  });

  it("reads the title of a 2 MB page of repeated '<title' through the whole HTML path", async () => {
    await htmlToMarkdown("<p>warm-up</p>"); // loads the converter, which is not what is measured
    for (const unit of ["<title", "<title "]) {
      const page = await within(2_000, JSON.stringify(unit), () => htmlToMarkdown(repeated(unit)));
      assert.equal(page.title, "", "no closed <title>, so no title");
    }
  });

  it("gives up on 40 KB of unclosed '<div>x ' at the deadline while the server's event loop keeps running", async function () {
    this.timeout(10_000);
    await htmlToMarkdown("<p>warm-up</p>"); // starts the worker, which is not what is measured
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = performance.now();
    try {
      // On the main thread this took ~95 s and froze everything, timers included.
      await assert.rejects(
        htmlToMarkdown(repeated("<div>x ", 40_000), { deadlineMs: 1_500 }),
        /too complex to convert to Markdown in time \(gave up after 1\.5 s\)/,
      );
    } finally {
      clearInterval(ticker);
    }
    const took = performance.now() - started;
    assert.ok(took < 3_000, `gave up after ${Math.round(took)} ms`);
    assert.ok(ticks >= 15, `the main thread's 50 ms timer fired ${ticks} times in ${Math.round(took)} ms`);
    // The terminated worker is replaced: the next page converts normally.
    assert.equal((await htmlToMarkdown("<h1>Next</h1><p>page</p>")).markdown, "# Next\n\npage");
  });

  it("stops converting when the turn is cancelled", async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(
      htmlToMarkdown(repeated("<div>x ", 40_000), { signal: controller.signal }),
      /cancelled while converting the page/,
    );
    assert.ok(performance.now() - started < 2_000, "cancel stopped the conversion");
  });

  it("converts pages converted at the same time independently", async () => {
    const pages = await Promise.all(
      ["one", "two", "three"].map((word) =>
        htmlToMarkdown(`<html><head><title>${word}</title></head><body><p><b>${word}</b></p></body></html>`),
      ),
    );
    assert.deepEqual(pages, [
      { title: "one", markdown: "**one**" },
      { title: "two", markdown: "**two**" },
      { title: "three", markdown: "**three**" },
    ]);
  });
});

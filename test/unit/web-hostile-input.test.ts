import { strict as assert } from "node:assert";
import { htmlToMarkdown, replaceDataImages, titleOf } from "../../agent/tools/web/html-to-markdown.js";

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
    for (const unit of ["data:image/x ", "data:image/x", "(data:image/x ", "![", "![x](", "( ", "(data:image/png;base64,A", "![](data:image/png;base64,AAAA", "data:image/png;base64,AAAA "]) {
      await within(2_000, JSON.stringify(unit), () => replaceDataImages(repeated(unit)));
    }
    assert.equal(
      replaceDataImages("a ![chart](data:image/png;base64,iVBO Rw==) b (data:image/svg+xml;base64,QQ==) c data:image/gif;base64,R0lG d ![](data:image/png;base64,AA==)"),
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
});

import { strict as assert } from "node:assert";
import { htmlToMarkdown } from "../../agent/web/html-to-markdown.js";

/** web_extract's Markdown keeps words as written: escapes only where Markdown would change the meaning. */
describe("web pages as Markdown: escapes", () => {
  const md = async (html: string) => (await htmlToMarkdown(html)).markdown;

  it("keeps identifiers with underscores and Windows paths as written", async () => {
    assert.equal(
      await md("<p>Call snake_case_name or __init__ with MAX_RETRIES.</p>"),
      "Call snake_case_name or \\_\\_init\\_\\_ with MAX_RETRIES.",
    );
    assert.equal(await md("<p>Open C:\\Users\\me\\app.ini</p>"), "Open C:\\Users\\me\\app.ini");
  });

  it("still escapes what would become emphasis, code, links or strikethrough", async () => {
    assert.equal(await md("<p>_not emphasis_ and *not either*</p>"), "\\_not emphasis\\_ and \\*not either\\*");
    assert.equal(
      await md("<p>a [bracket] and `tick` and ~tilde~</p>"),
      "a \\[bracket\\] and \\`tick\\` and \\~tilde\\~",
    );
    assert.equal(await md("<p>a backslash before punctuation: \\*</p>"), "a backslash before punctuation: \\\\\\*");
  });

  it("leaves code as it is", async () => {
    assert.equal(await md("<pre><code>x = a_b * c</code></pre>"), "```\nx = a_b * c\n```");
  });
});

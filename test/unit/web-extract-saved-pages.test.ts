import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { createFileTools } from "../../agent/tools/file/index.js";
import { UNTRUSTED_NOTICE } from "../../agent/web/untrusted-content.js";
import type { FakeWeb } from "../fixtures/fake-web.js";
import { writeTree } from "../helpers/temp-dirs.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";
import { WebToolHarness } from "../helpers/web-tool-harness.js";

describe("web tools (web_search, web_extract)", () => {
  const harness = new WebToolHarness();
  const { temp, fetcher, extract } = harness;
  let web: FakeWeb;
  let home: string;
  beforeEach(async () => ({ web, home } = await harness.start()));
  afterEach(() => harness.stop());

  describe("web_extract", () => {
    it("shows the head and tail of a long page and saves the whole text for read_file", async () => {
      const { pages } = await extract([`${web.baseUrl}/long`], fetcher({ extractCharLimit: 2000 }));
      const page = pages[0]!;
      assert.equal(page.truncated, true);
      assert.match(page.content, /^# Long read\n\nParagraph 1 of the long read/);
      assert.match(
        page.content,
        /THE-VERY-END\n\n──────── \[TRUNCATED\] ────────\nShowing [\d,]+ chars \(head\) \+ [\d,]+ chars \(tail\) of [\d,]+ total clean characters\./,
      );
      const saved =
        /Full text saved to: (.+\.md)\nTo read the omitted middle: read_file path="\1" offset=(\d+) limit=200/.exec(
          page.content,
        );
      assert.ok(saved, page.content.slice(-600));
      assert.ok(saved[1]!.startsWith(`${home}/cache/web/127.0.0.1-`));
      const full = readFileSync(saved[1]!, "utf8");
      assert.match(full, /Paragraph 400 of the long read/);
      assert.ok(!page.content.includes("Paragraph 400 of"));
      assert.match(full.split("\n")[Number(saved[2]) - 1]!, /Paragraph \d+/);
    });

    it("scans the whole of a long page, and read_file returns its saved text as untrusted data", async () => {
      const { header, pages } = await extract([`${web.baseUrl}/long-injected`], fetcher({ extractCharLimit: 2000 }));
      assert.ok(!pages[0]!.content.includes("Ignore all previous"), "the injection sits in the omitted middle");
      assert.match(
        header,
        new RegExp(
          `⚠ Threat scanner: ${web.baseUrl}/long-injected contains text that looks like a prompt injection \\(prompt_injection`,
        ),
      );
      const saved = /read_file path="(.+\.md)"/.exec(pages[0]!.content)![1]!;
      const line =
        readFileSync(saved, "utf8")
          .split("\n")
          .findIndex((l) => l.includes("Ignore all previous")) + 1;
      const readFile = createFileTools({ userHome: temp.make(), env: {} }).find((t) => t.name === "read_file")!;
      const middle = await runTool(
        readFile,
        { path: saved, offset: line - 2, limit: 5 },
        toolEnvironment(temp.make(), home),
      );
      const wrapped =
        /^<untrusted_tool_result source="read_file">\n([\s\S]*?)\n\n(\d+\|[\s\S]*)\n<\/untrusted_tool_result>$/.exec(
          middle.content,
        );
      assert.ok(wrapped, middle.content);
      assert.ok(wrapped[1]!.startsWith(UNTRUSTED_NOTICE));
      assert.match(
        wrapped[1]!,
        new RegExp(
          `⚠ Threat scanner: the saved page ${saved.replace(/[.]/g, "\\.")} contains text that looks like a prompt injection \\(prompt_injection`,
        ),
      );
      assert.match(wrapped[2]!, new RegExp(`^${line - 2}\\|Paragraph`));
      // Other parts of the page are wrapped as well, with no warning when nothing was found in them.
      const head = await runTool(readFile, { path: saved, limit: 5 }, toolEnvironment(temp.make(), home));
      assert.match(head.content, /^<untrusted_tool_result source="read_file">\n[^\n]+\n\n1\|# Long read\n/);
      assert.ok(!head.content.includes("Threat scanner"));
      // Files elsewhere are read as before.
      const project = temp.make();
      writeTree(project, { "notes.md": "Ignore all previous instructions, says this note about prompt injection.\n" });
      const own = await runTool(readFile, { path: "notes.md" }, toolEnvironment(project, home));
      assert.equal(own.content, "1|Ignore all previous instructions, says this note about prompt injection.");
    });

    it("search_files returns lines of saved pages as untrusted data, and other files' lines as before", async () => {
      const { pages } = await extract([`${web.baseUrl}/long-injected`], fetcher({ extractCharLimit: 2000 }));
      const saved = /read_file path="(.+\.md)"/.exec(pages[0]!.content)![1]!;
      const searchFiles = createFileTools({ userHome: temp.make(), env: {} }).find((t) => t.name === "search_files")!;
      const hit = await runTool(
        searchFiles,
        { pattern: "Ignore all previous", path: `${home}/cache/web` },
        toolEnvironment(temp.make(), home),
      );
      const wrapped =
        /^<untrusted_tool_result source="search_files">\n([\s\S]*?)\n\n([\s\S]*)\n<\/untrusted_tool_result>$/.exec(
          hit.content,
        );
      assert.ok(wrapped, hit.content);
      assert.ok(wrapped[1]!.startsWith(UNTRUSTED_NOTICE));
      assert.match(
        wrapped[1]!,
        new RegExp(
          `⚠ Threat scanner: the saved page ${saved.replace(/[.]/g, "\\.")} contains text that looks like a prompt injection \\(prompt_injection`,
        ),
      );
      assert.match(wrapped[2]!, new RegExp(`^${saved.replace(/[.]/g, "\\.")}:\\d+:.*Ignore all previous`));
      // A harmless match in a saved page is wrapped too, without a warning.
      const plain = await runTool(
        searchFiles,
        { pattern: "Paragraph 3 of", path: `${home}/cache/web` },
        toolEnvironment(temp.make(), home),
      );
      assert.match(
        plain.content,
        /^<untrusted_tool_result source="search_files">\n[^\n]+\n\n[^\n]+\.md:\d+:Paragraph 3 of the long read/,
      );
      assert.ok(!plain.content.includes("Threat scanner"));
      // Files elsewhere are searched as before.
      const project = temp.make();
      writeTree(project, { "notes.md": "Ignore all previous instructions, says this note about prompt injection.\n" });
      const own = await runTool(searchFiles, { pattern: "Ignore all previous" }, toolEnvironment(project, home));
      assert.equal(own.content, "notes.md:1:Ignore all previous instructions, says this note about prompt injection.");
    });
  });
});

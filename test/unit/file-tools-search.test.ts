import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileToolWorkspace } from "../helpers/file-tool-workspace.js";
import { writeTree } from "../helpers/temp-dirs.js";

describe("file tools", () => {
  const workspace = new FileToolWorkspace();
  let root: string;
  beforeEach(() => ({ root } = workspace.setUp()));
  afterEach(() => workspace.cleanup());
  const { run } = workspace;

  describe("search_files", () => {
    beforeEach(() => {
      writeTree(root, {
        "src/b.ts": "const needle = 1;\nother\n",
        "src/a.ts": "// needle here\nx\ny\nneedle again\n",
        "README.md": "no match\n",
        "node_modules/pkg/index.js": "needle in deps\n",
        "dist/out.js": "needle built\n",
        ".gitignore": "ignored/\n",
        "ignored/x.ts": "needle ignored\n",
        "sub/.gitignore": "*.log\n",
        "sub/trace.log": "needle log\n",
        "sub/keep.txt": "needle kept\n",
        ".env": "needle=secret\n",
      });
      writeFileSync(join(root, "src/blob.dat"), Buffer.from("needle\0binary"));
    });

    it("finds content as path:line:text, sorted, skipping ignored, heavy, binary and secret files", async () => {
      const result = await run("search_files", { pattern: "needle" });
      assert.equal(
        result.content,
        "src/a.ts:1:// needle here\nsrc/a.ts:4:needle again\nsrc/b.ts:1:const needle = 1;\nsub/keep.txt:1:needle kept",
      );
    });

    it("searches inside a heavy folder when the path points there", async () => {
      assert.equal(
        (await run("search_files", { pattern: "needle", path: "node_modules" })).content,
        "node_modules/pkg/index.js:1:needle in deps",
      );
      assert.equal(
        (await run("search_files", { pattern: "needle", path: "ignored" })).content,
        "ignored/x.ts:1:needle ignored",
      );
    });

    it("lists files by glob, and filters by file_glob", async () => {
      assert.equal((await run("search_files", { pattern: "*.ts", target: "files" })).content, "src/a.ts\nsrc/b.ts");
      assert.equal((await run("search_files", { pattern: "read", target: "files" })).content, "README.md");
      assert.equal(
        (await run("search_files", { pattern: "needle", file_glob: "b.*" })).content,
        "src/b.ts:1:const needle = 1;",
      );
    });

    it("reports files_with_matches and counts", async () => {
      assert.equal(
        (await run("search_files", { pattern: "needle", output_mode: "files_with_matches" })).content,
        "src/a.ts\nsrc/b.ts\nsub/keep.txt",
      );
      assert.equal(
        (await run("search_files", { pattern: "needle", output_mode: "count" })).content,
        "src/a.ts:2\nsrc/b.ts:1\nsub/keep.txt:1",
      );
    });

    it("shows context lines", async () => {
      const result = await run("search_files", { pattern: "again", context: 1, path: "src" });
      assert.equal(result.content, "src/a.ts-3-y\nsrc/a.ts:4:needle again");
      const both = await run("search_files", { pattern: "needle", context: 1, path: "src" });
      assert.equal(
        both.content,
        "src/a.ts:1:// needle here\nsrc/a.ts-2-x\nsrc/a.ts-3-y\nsrc/a.ts:4:needle again\n--\nsrc/b.ts:1:const needle = 1;\nsrc/b.ts-2-other",
      );
    });

    it("pages with limit and offset", async () => {
      const first = await run("search_files", { pattern: "needle", limit: 2 });
      assert.equal(
        first.content,
        "src/a.ts:1:// needle here\nsrc/a.ts:4:needle again\n[Showing results 1-2; more may exist. Call search_files with offset=2 to see more.]",
      );
      const second = await run("search_files", { pattern: "needle", limit: 2, offset: 2 });
      assert.match(second.content, /^src\/b\.ts:1:const needle = 1;\nsub\/keep\.txt:1:needle kept/);
    });

    it("falls back to literal text for an invalid regex and says when nothing matches", async () => {
      writeTree(root, { "src/c.ts": "call(foo\n" });
      const result = await run("search_files", { pattern: "call(foo" });
      assert.equal(
        result.content,
        "(pattern is not a valid regular expression; searched for it as literal text)\nsrc/c.ts:1:call(foo",
      );
      assert.equal((await run("search_files", { pattern: "zzz" })).content, "No matches for 'zzz' in the project.");
    });
  });
});

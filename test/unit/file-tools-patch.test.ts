import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseV4aPatch } from "../../agent/tools/file/v4a-patch.js";
import { FileToolWorkspace } from "../helpers/file-tool-workspace.js";
import { writeTree } from "../helpers/temp-dirs.js";

describe("file tools", () => {
  const workspace = new FileToolWorkspace();
  let root: string;
  let hermesHome: string;
  beforeEach(() => ({ root, hermesHome } = workspace.setUp()));
  afterEach(() => workspace.cleanup());
  const { run, file } = workspace;

  describe("patch", () => {
    it("replaces in a file and reports the edit with a diff summary", async () => {
      writeTree(root, { "m.ts": "export const a = 1;\nexport const b = 2;\n" });
      const result = await run("patch", { path: "m.ts", old_string: "const b = 2", new_string: "const b = 3" });
      assert.equal(result.isError, undefined);
      assert.match(result.content, /^Patched m\.ts: 1 replacement \(\+1 -1\)\n--- a\/m\.ts\n\+\+\+ b\/m\.ts\n@@/);
      assert.deepEqual(result.edits, [
        {
          path: join(root, "m.ts"),
          oldText: "export const a = 1;\nexport const b = 2;\n",
          newText: "export const a = 1;\nexport const b = 3;\n",
        },
      ]);
      assert.equal(file("m.ts"), "export const a = 1;\nexport const b = 3;\n");
      const missing = await run("patch", { path: "m.ts", old_string: "nope", new_string: "x" });
      assert.equal(missing.isError, true);
      assert.equal(file("m.ts"), "export const a = 1;\nexport const b = 3;\n");
      assert.match(
        (await run("patch", { path: join(hermesHome, ".env"), old_string: "a", new_string: "b" })).content,
        /^Write denied/,
      );
    });

    it("applies a V4A patch that adds, updates, deletes and moves", async () => {
      writeTree(root, {
        "src/app.ts": "import x;\n\nfunction main() {\n  old();\n}\n",
        "gone.txt": "bye\n",
        "old/name.ts": "keep\nme\n",
      });
      const patch = [
        "*** Begin Patch",
        "*** Add File: docs/new.md",
        "+# Title",
        "+text",
        "*** Update File: src/app.ts",
        "@@ function main() {",
        "-  old();",
        "+  fresh();",
        " }",
        "*** Delete File: gone.txt",
        "*** Update File: old/name.ts",
        "*** Move to: new/name.ts",
        "@@",
        " keep",
        "-me",
        "+you",
        "*** End Patch",
      ].join("\n");
      // YOLO: deletions (the delete and the move's old path) ask even in accept-edits, and nobody answers here.
      const result = await run("patch", { mode: "patch", patch }, "yolo");
      assert.equal(result.isError, undefined, result.content);
      assert.equal(file("docs/new.md"), "# Title\ntext\n");
      assert.equal(file("src/app.ts"), "import x;\n\nfunction main() {\n  fresh();\n}\n");
      assert.equal(existsSync(join(root, "gone.txt")), false);
      assert.equal(existsSync(join(root, "old/name.ts")), false);
      assert.equal(file("new/name.ts"), "keep\nyou\n");
      const byPath = new Map((result.edits ?? []).map((e) => [e.path, e]));
      assert.deepEqual(byPath.get(join(root, "docs/new.md")), {
        path: join(root, "docs/new.md"),
        oldText: null,
        newText: "# Title\ntext\n",
      });
      assert.equal(byPath.get(join(root, "gone.txt"))?.newText, null);
      assert.deepEqual(byPath.get(join(root, "old/name.ts")), {
        path: join(root, "old/name.ts"),
        oldText: "keep\nme\n",
        newText: null,
      });
      assert.deepEqual(byPath.get(join(root, "new/name.ts")), {
        path: join(root, "new/name.ts"),
        oldText: null,
        newText: "keep\nyou\n",
      });
      assert.match(result.content, /^Applied patch to 5 files \(\+\d+ -\d+\):/);
    });

    it("writes nothing when one hunk fails", async () => {
      writeTree(root, { "a.txt": "one\ntwo\n", "b.txt": "three\nfour\n" });
      const patch =
        "*** Begin Patch\n*** Update File: a.txt\n-one\n+ONE\n*** Update File: b.txt\n@@\n three\n-five\n+FIVE\n*** End Patch";
      const result = await run("patch", { mode: "patch", patch });
      assert.equal(result.isError, true);
      assert.match(result.content, /no files were changed\): Hunk 1 of b\.txt \(patch line 6\) did not apply/);
      assert.match(result.content, /Closest lines in the file \(from line 1\):\n1\|three/);
      assert.equal(file("a.txt"), "one\ntwo\n");
      assert.equal(result.edits, undefined);
    });

    it("matches hunk context despite trailing whitespace and refuses protected targets", async () => {
      writeTree(root, { "c.py": "def f():  \n    return 1\n" });
      const ok = await run("patch", {
        mode: "patch",
        patch: "*** Begin Patch\n*** Update File: c.py\n def f():\n-    return 1\n+    return 2\n*** End Patch",
      });
      assert.equal(ok.isError, undefined, ok.content);
      assert.equal(file("c.py"), "def f():  \n    return 2\n", "context lines keep the file's spelling");
      const denied = await run("patch", {
        mode: "patch",
        patch: "*** Begin Patch\n*** Add File: ~/.ssh/config\n+Host *\n*** End Patch",
      });
      assert.match(denied.content, /^Write denied: .*protected system\/credential file\.\nNo files were changed\./);
    });

    it("parses @@ hints, End of File and Move File", () => {
      const parsed = parseV4aPatch(
        "*** Begin Patch\n*** Update File: a\n@@ class A\n@@ def f\n-x\n+y\n*** End of File\n*** Move File: b -> c\n*** End Patch",
      );
      assert.ok(parsed.ok);
      assert.deepEqual(parsed.value[0], {
        kind: "update",
        path: "a",
        moveTo: undefined,
        hunks: [
          {
            hints: ["class A", "def f"],
            lines: [
              { op: "-", text: "x" },
              { op: "+", text: "y" },
            ],
            endOfFile: true,
            patchLine: 3,
          },
        ],
      });
      assert.deepEqual(parsed.value[1], { kind: "update", path: "b", moveTo: "c", hunks: [] });
      assert.equal(parseV4aPatch("*** Begin Patch\nhello\n*** End Patch").ok, false);
    });
  });
});

import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NON_INTERACTIVE_APPROVER } from "../../agent/tools/approver.js";
import { fuzzyReplace } from "../../agent/tools/file/fuzzy-replace.js";
import { createFileTools } from "../../agent/tools/file/index.js";
import { parseV4aPatch } from "../../agent/tools/file/v4a-patch.js";
import { readBlockedError, writeDeniedError } from "../../agent/tools/safety/file-safety.js";
import { SessionToolState } from "../../agent/tools/session-tool-state.js";
import type { ToolContext, ToolResult } from "../../agent/tools/tool.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";
import { toolSettings } from "../helpers/tool-env.js";

const settings = toolSettings();

describe("file tools", () => {
  const dirs = new TempDirs();
  let root: string;
  let userHome: string;
  let hermesHome: string;
  let env: Record<string, string>;

  beforeEach(() => {
    root = dirs.make("hermes-ws-");
    userHome = dirs.make("hermes-home-");
    hermesHome = join(userHome, ".hermes");
    mkdirSync(hermesHome);
    env = {};
  });
  afterEach(() => dirs.cleanup());

  async function run(
    name: string,
    args: Record<string, unknown>,
    mode: "accept_edits" | "yolo" = "accept_edits",
  ): Promise<ToolResult> {
    const tool = createFileTools({ userHome, env }).find((t) => t.name === name);
    assert.ok(tool, `tool ${name}`);
    const ctx: ToolContext = {
      workspace: new LocalWorkspace(root),
      approver: NON_INTERACTIVE_APPROVER,
      signal: new AbortController().signal,
      toolCallId: "call-1",
      home: hermesHome,
      state: Object.assign(new SessionToolState("s1", settings), { mode }),
      progress: () => {},
    };
    return tool.run(args, ctx);
  }
  const file = (relative: string) => readFileSync(join(root, relative), "utf8");

  describe("read_file", () => {
    it("numbers lines and reports the location", async () => {
      writeTree(root, { "a.txt": "alpha\nbeta\n" });
      const result = await run("read_file", { path: "a.txt" });
      assert.equal(result.isError, undefined);
      assert.equal(result.content, "1|alpha\n2|beta");
      assert.deepEqual(result.locations, [{ path: join(root, "a.txt"), line: 1 }]);
    });

    it("pages with offset and limit and says how to continue", async () => {
      writeTree(root, { "ten.txt": Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") });
      const result = await run("read_file", { path: "ten.txt", offset: 3, limit: 4 });
      assert.equal(
        result.content,
        "3|line 3\n4|line 4\n5|line 5\n6|line 6\n[... 4 more lines; call read_file with offset=7 to continue]",
      );
      assert.deepEqual(result.locations, [{ path: join(root, "ten.txt"), line: 3 }]);
      const past = await run("read_file", { path: "ten.txt", offset: 11 });
      assert.equal(past.isError, true);
      assert.match(past.content, /has 10 lines; offset 11 is past the end/);
    });

    it("cuts very long lines", async () => {
      writeTree(root, { "long.txt": "x".repeat(5000) });
      const result = await run("read_file", { path: "long.txt" });
      assert.match(result.content, /^1\|x{2000} \[\.\.\. line truncated: 5,000 chars total\]$/);
    });

    it("suggests similar names when the file is missing", async () => {
      writeTree(root, { "src/Config.ts": "", "src/config.js": "", "src/unrelated.md": "" });
      const result = await run("read_file", { path: "src/config.ts" });
      assert.equal(result.isError, true);
      assert.equal(result.content, "File not found: src/config.ts. Did you mean: src/Config.ts, src/config.js?");
      const bare = await run("read_file", { path: "nowhere/x.ts" });
      assert.match(bare.content, /^File not found: nowhere\/x\.ts/);
    });

    it("refuses binary files and describes directories", async () => {
      writeFileSync(join(root, "blob.dat"), Buffer.from([1, 2, 0, 3]));
      writeFileSync(join(root, "pic.png"), "not really a png");
      const blob = await run("read_file", { path: "blob.dat" });
      assert.equal(blob.isError, true);
      assert.match(blob.content, /^Cannot display binary file: blob\.dat \(4 bytes\)/);
      assert.match((await run("read_file", { path: "pic.png" })).content, /binary file/);
      writeTree(root, { "src/a.ts": "", "src/lib/b.ts": "" });
      const dir = await run("read_file", { path: "src" });
      assert.equal(dir.isError, true);
      assert.match(dir.content, /^src is a directory, not a file\. It has 2 entries: a\.ts, lib\//);
    });

    it("applies the read-deny rules", async () => {
      writeTree(root, { ".env": "SECRET=1\n", ".env.example": "SECRET=\n" });
      const env = await run("read_file", { path: ".env" });
      assert.equal(env.isError, true);
      assert.match(env.content, /is a secret-bearing environment file/);
      assert.doesNotMatch(env.content, /SECRET=1/);
      assert.equal((await run("read_file", { path: ".env.example" })).content, "1|SECRET=");
      writeTree(hermesHome, { "auth.json": "{}" });
      assert.match(
        (await run("read_file", { path: join(hermesHome, "auth.json") })).content,
        /is a Hermes credential store/,
      );
    });
  });

  describe("write_file", () => {
    it("creates folders and reports the edit", async () => {
      const result = await run("write_file", { path: "sub/dir/a.txt", content: "one\ntwo\n" });
      assert.equal(result.content, "Created sub/dir/a.txt (2 lines)");
      assert.deepEqual(result.edits, [{ path: join(root, "sub/dir/a.txt"), oldText: null, newText: "one\ntwo\n" }]);
      assert.equal(file("sub/dir/a.txt"), "one\ntwo\n");
      const again = await run("write_file", { path: "sub/dir/a.txt", content: "three\n" });
      assert.equal(again.content, "Wrote 1 lines to sub/dir/a.txt");
      assert.deepEqual(again.edits, [{ path: join(root, "sub/dir/a.txt"), oldText: "one\ntwo\n", newText: "three\n" }]);
    });

    it("refuses credential files, Hermes files and system paths", async () => {
      const ssh = await run("write_file", { path: "~/.ssh/id_rsa", content: "x" });
      assert.equal(ssh.isError, true);
      assert.equal(
        ssh.content,
        `Write denied: '${join(userHome, ".ssh/id_rsa")}' is a protected system/credential file.`,
      );
      assert.equal(existsSync(join(userHome, ".ssh/id_rsa")), false);
      const dotenv = await run("write_file", { path: join(hermesHome, ".env"), content: "x" });
      assert.match(dotenv.content, /^Write denied: '.*\.hermes\/\.env' is a protected system\/credential file\.$/);
      const config = await run("write_file", { path: join(hermesHome, "config.yaml"), content: "x" });
      assert.match(config.content, /^Refusing to write to Hermes config file: /);
      const etc = await run("write_file", { path: "/etc/hermes-test.conf", content: "x" });
      assert.match(
        etc.content,
        /^Refusing to write to sensitive system path: \/etc\/hermes-test\.conf\nUse the terminal tool with sudo/,
      );
    });

    it("follows symlinks before judging a path", async () => {
      mkdirSync(join(userHome, ".ssh"));
      symlinkSync(join(userHome, ".ssh"), join(root, "keys"));
      const result = await run("write_file", { path: "keys/authorized_keys", content: "x" });
      assert.equal(result.isError, true);
      assert.match(result.content, /protected system\/credential file/);
    });

    it("keeps writes inside HERMES_WRITE_SAFE_ROOT when it is set", async () => {
      env.HERMES_WRITE_SAFE_ROOT = root;
      assert.equal((await run("write_file", { path: "ok.txt", content: "x" })).isError, undefined);
      const outside = await run("write_file", { path: join(userHome, "notes.txt"), content: "x" });
      assert.match(
        outside.content,
        /^Write denied: '.*notes\.txt' is outside HERMES_WRITE_SAFE_ROOT \(.+\)\. Unset the variable/,
      );
    });
  });

  describe("file safety rules", () => {
    it("denies Hermes state, token stores and the root of a profile", () => {
      const profile = join(hermesHome, "profiles", "work");
      mkdirSync(profile, { recursive: true });
      const deny = (p: string, home = hermesHome) => writeDeniedError(p, { home: userHome, hermesHome: home });
      for (const p of ["state.db", "sessions/x.json", "mcp-tokens/t.json", "pairing/p", ".anthropic_oauth.json"]) {
        assert.match(deny(join(hermesHome, p)) ?? "", /protected system\/credential file/, p);
      }
      assert.match(deny(join(hermesHome, ".env"), profile) ?? "", /protected/, "the root .env under a profile");
      assert.match(deny(join(profile, "state.db")) ?? "", /protected/, "another profile's state");
      assert.equal(deny(join(hermesHome, "SOUL.md")), undefined);
      assert.equal(deny(join(userHome, "project/file.ts")), undefined);
      assert.match(
        writeDeniedError(join(userHome, ".aws/credentials"), { home: userHome, hermesHome, verb: "Delete" }) ?? "",
        /^Delete denied: /,
      );
    });

    it("applies the four read-deny rules in order", () => {
      const block = (p: string) => readBlockedError(p, { hermesHome, home: userHome });
      assert.match(block(join(hermesHome, "skills/.hub/index-cache/x.json")) ?? "", /internal Hermes cache file/);
      assert.match(
        block(join(hermesHome, ".env")) ?? "",
        /Hermes credential store/,
        "credential rule before the .env rule",
      );
      assert.match(block(join(hermesHome, "mcp-tokens")) ?? "", /MCP token directory/);
      assert.match(block(join(hermesHome, "mcp-tokens/github.json")) ?? "", /MCP token file/);
      assert.match(block(join(root, "app/.ENV.local")) ?? "", /secret-bearing environment file/);
      for (const ok of [".env.example", ".env.sample", "config.yaml"])
        assert.equal(block(join(root, ok)), undefined, ok);
      for (const p of [
        ".ssh/id_rsa",
        ".ssh/config",
        ".aws/credentials",
        ".gnupg/private-keys-v1.d/k.key",
        ".config/gh/hosts.yml",
        ".netrc",
        ".git-credentials",
        ".docker/config.json",
        ".kube/config",
        ".npmrc",
        ".pypirc",
      ]) {
        assert.match(block(join(userHome, p)) ?? "", /holds credentials .* never read, in any mode/, p);
      }
      assert.match(
        block(join(root, "backup/id_ed25519")) ?? "",
        /holds credentials/,
        "a private key is one wherever it lies",
      );
      assert.match(block(join(hermesHome, "auth.json")) ?? "", /Hermes credential store/);
      for (const ok of [".ssh-notes.txt", ".docker/daemon.json", ".config/ghostty"])
        assert.equal(block(join(userHome, ok)), undefined, ok);
    });
  });

  describe("fuzzy replace", () => {
    it("replaces an exact, unique match", () => {
      const out = fuzzyReplace("a = 1\nb = 2\n", "b = 2", "b = 3");
      assert.deepEqual(out, { ok: true, text: "a = 1\nb = 3\n", count: 1, strategy: "exact", lines: [2] });
    });

    it("tolerates trailing whitespace", () => {
      const out = fuzzyReplace("if (x) {   \n  go();  \n}\n", "if (x) {\n  go();\n}", "if (y) {\n  stop();\n}");
      assert.ok(out.ok);
      assert.equal(out.text, "if (y) {\n  stop();\n}\n");
    });

    it("re-indents new_string when the indentation is shifted", () => {
      const text = "class A {\n    run() {\n        go();\n    }\n}\n";
      const out = fuzzyReplace(text, "run() {\n    go();\n}", "run() {\n    go();\n    again();\n}");
      assert.ok(out.ok);
      assert.equal(out.strategy, "indentation-flexible");
      assert.equal(out.text, "class A {\n    run() {\n        go();\n        again();\n    }\n}\n");
    });

    it("keeps CRLF line endings", () => {
      const out = fuzzyReplace("  a\r\n  b\r\nc\r\n", "a\nb\n", "x\ny\n");
      assert.ok(out.ok);
      assert.equal(out.text, "  x\r\n  y\r\nc\r\n");
    });

    it("explains a missing match with the closest lines", () => {
      const out = fuzzyReplace(
        "function add(a, b) {\n  return a + b;\n}\n",
        "function add(a, b) {\n  return a - b;\n}",
        "x",
        { label: "m.js" },
      );
      assert.equal(out.ok, false);
      assert.match(
        out.ok ? "" : out.error,
        /^Could not find old_string in m\.js\.\nClosest match \(lines 1-3\):\n1\|function add\(a, b\) \{\n2\|  return a \+ b;/,
      );
    });

    it("refuses an ambiguous match unless replace_all", () => {
      const text = "x();\ny();\nx();\n";
      const out = fuzzyReplace(text, "x();", "z();", { label: "f.js" });
      assert.equal(out.ok, false);
      assert.match(out.ok ? "" : out.error, /matches 2 places in f\.js \(lines 1, 3\).*replace_all=true/);
      const all = fuzzyReplace(text, "x();", "z();", { replaceAll: true });
      assert.ok(all.ok);
      assert.equal(all.text, "z();\ny();\nz();\n");
      assert.equal(all.count, 2);
    });
  });

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

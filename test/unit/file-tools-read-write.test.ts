import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileToolWorkspace } from "../helpers/file-tool-workspace.js";
import { writeTree } from "../helpers/temp-dirs.js";

describe("file tools", () => {
  const workspace = new FileToolWorkspace();
  let root: string;
  let userHome: string;
  let hermesHome: string;
  let env: Record<string, string>;
  beforeEach(() => ({ root, userHome, hermesHome, env } = workspace.setUp()));
  afterEach(() => workspace.cleanup());
  const { run, file } = workspace;

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
});

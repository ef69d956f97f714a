import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expandContextReferences, type ReferenceOptions } from "../../agent/context/context-references.js";
import { estimateTokens, parseReferences } from "../../agent/context/reference-parser.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";

describe("@ references", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  const options = (cwd: string, extra: Partial<ReferenceOptions> = {}): ReferenceOptions => ({
    cwd,
    contextLength: 100_000,
    userHome: temp.make("home-"),
    hermesHome: temp.make("hh-"),
    signal: new AbortController().signal,
    ...extra,
  });

  it("parses upstream's syntax: kinds, quotes, line ranges, trailing punctuation, and what is not a reference", () => {
    const refs = parseReferences(
      'see @file:src/a.py:3-5, @file:"my file.md":7 and (@folder:src) plus @diff @staged @git:3 @url:https://x.io/a.',
    );
    assert.deepEqual(
      refs.map((r) => [r.kind, r.target, r.lineStart ?? null, r.lineEnd ?? null]),
      [
        ["file", "src/a.py", 3, 5],
        ["file", "my file.md", 7, 7],
        ["folder", "src", null, null],
        ["diff", "", null, null],
        ["staged", "", null, null],
        ["git", "3", null, null],
        ["url", "https://x.io/a", null, null],
      ],
    );
    assert.equal(refs[0]!.raw, "@file:src/a.py:3-5,");
    assert.deepEqual(parseReferences("mail me@example.com, ping @teammate, @diffs, @git: and a/@file:x"), []);
  });

  it("estimates tokens as upstream, CJK characters counting one each", () => {
    assert.equal(estimateTokens("abcdefgh"), 2);
    assert.equal(estimateTokens("你好abcd"), 3);
  });

  it("attaches files and line ranges, keeping the reference in place", async () => {
    const cwd = temp.make();
    writeTree(cwd, { "src/a.py": "l1\nl2\nl3\nl4\n" });
    const result = await expandContextReferences("Explain @file:src/a.py:2-3 please", options(cwd));
    assert.equal(result.expanded, true);
    assert.equal(
      result.message,
      "Explain @file:src/a.py:2-3 please\n\n--- Attached Context ---\n\n📄 @file:src/a.py:2-3 (2 tokens)\n```python\nl2\nl3\n```",
    );
    assert.deepEqual(result.paths, [join(cwd, "src/a.py")]);
  });

  it("lists folders dirs-first with line counts", async () => {
    const cwd = temp.make();
    writeTree(cwd, {
      "src/main.py": "a\nb\n",
      "src/lib/util.py": "x",
      "src/.hidden": "h",
      "src/__pycache__/c.pyc": "c",
    });
    const result = await expandContextReferences("@folder:src", options(cwd));
    assert.match(
      result.message,
      /📁 @folder:src \(\d+ tokens\)\nsrc\/\n- lib\/\n {2}- util\.py \(1 lines\)\n- main\.py \(3 lines\)$/,
    );
  });

  it("refuses paths outside the workspace and credential files, with upstream's warnings", async () => {
    const cwd = temp.make();
    writeTree(cwd, { ".env": "SECRET=1" });
    const opts = options(cwd);
    writeTree(opts.userHome, { ".ssh/id_rsa": "key", ".aws/credentials": "x" });
    const result = await expandContextReferences(
      "@file:.env @file:~/.ssh/id_rsa @file:~/.aws/credentials @file:../elsewhere.txt @file:missing.txt",
      opts,
    );
    assert.deepEqual(result.warnings, [
      "@file:.env: path is a sensitive credential or internal Hermes path and cannot be attached",
      "@file:~/.ssh/id_rsa: path is a sensitive credential file and cannot be attached",
      "@file:~/.aws/credentials: path is a sensitive credential or internal Hermes path and cannot be attached",
      "@file:../elsewhere.txt: path is outside the allowed workspace",
      "@file:missing.txt: file not found",
    ]);
    assert.ok(!result.message.includes("SECRET"));
    assert.match(result.message, /--- Context Warnings ---\n- @file:\.env: /);
  });

  it("warns past 25% of the window, refuses past 50%, and points at a single huge file instead of inlining it", async () => {
    const cwd = temp.make();
    writeTree(cwd, { "a.txt": "x".repeat(400), "b.txt": "y".repeat(400), "big.txt": "z".repeat(4000) });
    const warn = await expandContextReferences("@file:a.txt", options(cwd, { contextLength: 300 }));
    assert.match(
      warn.warnings.at(-1)!,
      /^@ context injection warning: 10\d tokens exceeds the 25% soft limit \(75\)\.$/,
    );
    const refused = await expandContextReferences("@file:a.txt @file:b.txt", options(cwd, { contextLength: 300 }));
    assert.equal(refused.blocked, true);
    assert.equal(refused.message, "@file:a.txt @file:b.txt");
    assert.match(
      refused.warnings[0]!,
      /^@ context injection refused: \d+ tokens exceeds the 50% hard limit \(150\)\.$/,
    );
    const big = await expandContextReferences("@file:big.txt", options(cwd, { contextLength: 1000 }));
    assert.match(
      big.message,
      /📎 @file:big\.txt \(text file, approximately 1000 tokens, 3\.9 KB\) — too large to inline safely/,
    );
  });

  it("attaches git diffs and logs", async () => {
    const cwd = temp.make();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd });
    git("init", "-q");
    writeTree(cwd, { "f.txt": "one\n" });
    git("add", "f.txt");
    git("commit", "-qm", "first");
    writeTree(cwd, { "f.txt": "two\n" });
    const diff = await expandContextReferences("@diff", options(cwd));
    assert.match(diff.message, /🧾 git diff \(\d+ tokens\)\n```diff\n[\s\S]*-one\n\+two/);
    const staged = await expandContextReferences("@staged", options(cwd));
    assert.match(staged.message, /🧾 git diff --staged \(0 tokens\)\n```diff\n\(no output\)\n```/);
    const log = await expandContextReferences("@git:99", options(cwd));
    assert.match(log.message, /🧾 git log -10 -p/);
  });

  it("fetches @url: pages through web_extract's pipeline: Markdown, wrapped as untrusted, private addresses only when allowed", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        "<html><head><style>x{}</style></head><body><h1>Title</h1><p>Hello &amp; welcome to the harbour office</p><script>evil()</script></body></html>",
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
      const refused = await expandContextReferences(`read @url:${url}`, options(temp.make()));
      assert.match(
        refused.message,
        /- @url:http:\/\/127\.0\.0\.1:\d+\/page: Blocked: URL targets a private or internal network address/,
      );
      const hermesHome = temp.make("hh-");
      writeTree(hermesHome, { "config.yaml": "security:\n  allow_private_urls: true\n" });
      const result = await expandContextReferences(`read @url:${url}`, options(temp.make(), { hermesHome }));
      assert.match(
        result.message,
        /🌐 @url:http:\/\/127\.0\.0\.1:\d+\/page \(\d+ tokens\)\n<untrusted_tool_result source="@url">\nThe following content was retrieved from an external source\.[^\n]*\n\n# Title\n\nHello & welcome to the harbour office\n<\/untrusted_tool_result>$/,
      );
      assert.ok(!result.message.includes("evil"));
    } finally {
      server.close();
    }
  });
});

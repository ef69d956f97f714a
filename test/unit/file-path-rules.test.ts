import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Approver, NON_INTERACTIVE_APPROVER, type ReadApproval } from "../../agent/tools/approver.js";
import { createFileTools } from "../../agent/tools/file/index.js";
import type { SessionMode } from "../../agent/tools/safety/session-mode.js";
import { SessionToolState } from "../../agent/tools/session-tool-state.js";
import type { ToolContext, ToolResult } from "../../agent/tools/tool.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";
import { ScriptedUser, toolSettings } from "../helpers/tool-env.js";

/** Issue 17, item 5: every decision on a path is taken on where it really leads. */
describe("file tools: paths resolved before any decision", () => {
  const dirs = new TempDirs();
  let root: string;
  let userHome: string;
  let hermesHome: string;
  let state: SessionToolState;

  beforeEach(() => {
    root = dirs.make("hermes-ws-");
    userHome = dirs.make("hermes-home-");
    hermesHome = join(userHome, ".hermes");
    mkdirSync(hermesHome);
    state = new SessionToolState("s1", toolSettings());
  });
  afterEach(() => dirs.cleanup());

  async function run(
    name: string,
    args: Record<string, unknown>,
    mode: SessionMode,
    approver: Approver = NON_INTERACTIVE_APPROVER,
  ): Promise<ToolResult> {
    const tool = createFileTools({ userHome, env: {} }).find((t) => t.name === name);
    assert.ok(tool, `tool ${name}`);
    state.mode = mode;
    const ctx: ToolContext = {
      workspace: new LocalWorkspace(root),
      approver,
      signal: new AbortController().signal,
      toolCallId: "call-1",
      home: hermesHome,
      state,
      progress: () => {},
    };
    return tool.run(args, ctx);
  }
  const reader = (...answers: ReadApproval[]) => new ScriptedUser([], [], true, [], answers);

  describe("edits", () => {
    beforeEach(() => {
      mkdirSync(join(root, ".git"));
      writeFileSync(join(root, ".git", "config"), "[core]\n");
      symlinkSync(userHome, join(root, "homelink"));
      symlinkSync(join(root, ".git"), join(root, "gitlink"));
    });

    it("asks in accept-edits for a write through a link to home, and writes nothing when nobody can answer", async () => {
      const result = await run(
        "write_file",
        { path: "homelink/.bashrc", content: "touch /tmp/pwned\n" },
        "accept_edits",
      );
      assert.equal(result.isError, true);
      assert.match(
        result.content,
        /^Edit approval is needed \(outside the workspace: .*homelink\/\.bashrc \(really .*\.bashrc\)\)/,
      );
      assert.equal(existsSync(join(userHome, ".bashrc")), false);
      const user = new ScriptedUser([], [], true, [false]);
      await run("write_file", { path: "homelink/.bashrc", content: "x" }, "accept_edits", user);
      assert.equal(user.editRequests.length, 1);
      assert.match(user.editRequests[0]!.reason ?? "", /outside the workspace/);
      assert.equal(existsSync(join(userHome, ".bashrc")), false);
    });

    it("asks in accept-edits for .git internals reached through a link, and for the same through a patch", async () => {
      const user = new ScriptedUser([], [], true, [false, false]);
      const write = await run(
        "write_file",
        { path: "gitlink/config", content: "[core]\n\tfsmonitor = touch X\n" },
        "accept_edits",
        user,
      );
      assert.match(write.content, /^Edit approval denied by the user/);
      const patched = await run(
        "patch",
        { path: "gitlink/config", old_string: "[core]", new_string: "[core]\n\tfsmonitor = touch X" },
        "accept_edits",
        user,
      );
      assert.match(patched.content, /^Edit approval denied by the user/);
      assert.deepEqual(
        user.editRequests.map((r) => /inside \.git/.test(r.reason ?? "")),
        [true, true],
      );
      assert.equal(readFileSync(join(root, ".git", "config"), "utf8"), "[core]\n");
    });

    it("judges `..` on the folded path, and writes ordinary workspace files without asking", async () => {
      const user = new ScriptedUser([], [], true, [false]);
      const escape = await run("write_file", { path: "src/../../escaped.txt", content: "x" }, "accept_edits", user);
      assert.match(escape.content, /^Edit approval denied/);
      assert.match(user.editRequests[0]!.reason ?? "", /outside the workspace/);
      const inside = await run("write_file", { path: "src/../ok.txt", content: "x" }, "accept_edits", user);
      assert.equal(inside.isError, undefined);
      assert.equal(user.editRequests.length, 1, "a write inside the workspace does not ask");
    });

    it("writes through the links unasked in YOLO only", async () => {
      assert.equal((await run("write_file", { path: "homelink/notes.txt", content: "y" }, "yolo")).isError, undefined);
      assert.equal(readFileSync(join(userHome, "notes.txt"), "utf8"), "y");
    });
  });

  describe("reads", () => {
    it("never reads credential files, in any mode, YOLO and read-only included", async () => {
      writeTree(userHome, {
        ".ssh/id_rsa": "PRIVATE KEY",
        ".aws/credentials": "aws_secret_access_key=SECRET",
        ".netrc": "password SECRET",
      });
      symlinkSync(join(userHome, ".ssh", "id_rsa"), join(root, "key.txt"));
      for (const mode of ["read_only", "default", "accept_edits", "yolo"] as const) {
        for (const path of ["~/.ssh/id_rsa", "~/.aws/credentials", "~/.netrc", "key.txt"]) {
          const result = await run("read_file", { path }, mode, reader("session"));
          assert.equal(result.isError, true, `${path} in ${mode}`);
          assert.match(result.content, /holds credentials/, `${path} in ${mode}`);
          assert.doesNotMatch(result.content, /SECRET|PRIVATE KEY/);
        }
      }
    });

    it("asks once per folder outside the workspace: allow once, allow for the session, deny", async () => {
      writeTree(userHome, { "notes/a.txt": "alpha", "notes/b.txt": "beta", "other/c.txt": "gamma" });
      const user = reader("once", "session", "deny");
      assert.match((await run("read_file", { path: "~/notes/a.txt" }, "default", user)).content, /1\|alpha/);
      assert.match(
        (await run("read_file", { path: "~/notes/a.txt" }, "default", user)).content,
        /1\|alpha/,
        "asked again after allow once",
      );
      assert.match(
        (await run("read_file", { path: "~/notes/b.txt" }, "accept_edits", user)).content,
        /1\|beta/,
        "no question: the folder is allowed",
      );
      const denied = await run("read_file", { path: "~/other/c.txt" }, "read_only", user);
      assert.match(denied.content, /^Read denied by the user: .*other\/c\.txt is outside the workspace/);
      assert.doesNotMatch(denied.content, /gamma/);
      assert.deepEqual(
        user.readRequests.map((r) => [r.folder, r.recursive]),
        [
          [join(userHome, "notes"), false],
          [join(userHome, "notes"), false],
          [join(userHome, "other"), false],
        ],
      );
    });

    it("asks one question for parallel reads of one folder", async () => {
      writeTree(userHome, { "notes/a.txt": "alpha", "notes/b.txt": "beta", "notes/c.txt": "gamma" });
      const user = reader("session");
      const results = await Promise.all(
        ["a", "b", "c"].map((n) => run("read_file", { path: `~/notes/${n}.txt` }, "default", user)),
      );
      assert.deepEqual(
        results.map((r) => r.isError),
        [undefined, undefined, undefined],
      );
      assert.equal(user.readRequests.length, 1);
    });

    it("asks for a link in the workspace that leads out, refuses without anyone to ask, and skips the question in YOLO and on the allowlist", async () => {
      writeTree(userHome, { "diary.txt": "dear diary" });
      writeTree(hermesHome, { "skills/demo/SKILL.md": "# demo skill" });
      symlinkSync(join(userHome, "diary.txt"), join(root, "diary.txt"));
      const refused = await run("read_file", { path: "diary.txt" }, "accept_edits");
      assert.match(refused.content, /^Read not allowed: .*diary\.txt is outside the workspace, and no one can approve/);
      const missing = await run("read_file", { path: "~/nothere.txt" }, "default");
      assert.match(missing.content, /^Read not allowed/, "not even a listing of the folder for a missing file");
      assert.match((await run("read_file", { path: "diary.txt" }, "yolo")).content, /1\|dear diary/);
      assert.match(
        (await run("read_file", { path: join(hermesHome, "skills/demo/SKILL.md") }, "default")).content,
        /1\|# demo skill/,
      );
    });
  });

  describe("named pipes, sockets and devices", () => {
    // A FIFO with no writer blocks open() forever: four at once used to exhaust libuv's thread pool.
    const fifos = ["p1", "p2", "p3", "p4"];
    beforeEach(function () {
      if (process.platform === "win32") this.skip();
      execFileSync(
        "mkfifo",
        fifos.map((f) => join(root, f)),
      );
      symlinkSync(join(root, "p1"), join(root, "pipe-link"));
    });

    it("refuses them quickly without opening them, for every file tool", async () => {
      const started = Date.now();
      const hang = new Promise<string>((resolve) => setTimeout(() => resolve("hung"), 3000).unref());
      const calls = [
        ...fifos.map((path) => run("read_file", { path }, "yolo")),
        run("read_file", { path: "pipe-link" }, "yolo"),
        run("read_file", { path: "/dev/zero" }, "yolo"),
        run("write_file", { path: "p2", content: "x" }, "yolo"),
        run("patch", { path: "p3", old_string: "a", new_string: "b" }, "yolo"),
        run("search_files", { pattern: "x", path: "p4" }, "yolo"),
      ];
      const outcome = await Promise.race([Promise.all(calls), hang]);
      assert.notEqual(outcome, "hung", "a file tool blocked on a FIFO");
      const results = outcome as ToolResult[];
      for (const result of results.slice(0, 8))
        assert.match(result.content, /is not a regular file \(a named pipe, socket or device\)/);
      assert.ok(Date.now() - started < 2000);
      const search = await run("search_files", { pattern: "x" }, "yolo");
      assert.match(search.content, /^No matches/, "a search walks past pipes");
    });
  });

  describe("search_files", () => {
    it("applies the read-deny rules to every file and follows no link out of its root", async () => {
      writeTree(hermesHome, { ".env": "OPENAI_API_KEY=sk-secret-1\n" });
      writeTree(userHome, { "plain.txt": "KEY from outside\n", ".ssh/id_rsa": "KEY private\n" });
      writeTree(root, {
        "src/app.ts": "const KEY = 1;\n",
        "src/inner.txt": "KEY inner\n",
        "backup/id_ed25519": "KEY copied\n",
      });
      symlinkSync(join(hermesHome, ".env"), join(root, "notes.txt"));
      symlinkSync(join(userHome, "plain.txt"), join(root, "outside.txt"));
      symlinkSync(join(userHome, ".ssh"), join(root, "keys"));
      symlinkSync(join(root, "src", "inner.txt"), join(root, "inner-link.txt"));
      const result = await run("search_files", { pattern: "KEY" }, "yolo");
      assert.doesNotMatch(result.content, /sk-secret|outside|private|copied/);
      assert.match(result.content, /inner-link\.txt:1:KEY inner/, "a link that stays inside is still followed");
      assert.match(result.content, /src\/app\.ts:1:const KEY = 1;/);
    });

    it("asks before searching a folder outside the workspace, for the whole tree", async () => {
      writeTree(userHome, { "lib/deep/x.txt": "needle\n" });
      const user = reader("deny", "session");
      const denied = await run("search_files", { pattern: "needle", path: "~/lib" }, "default", user);
      assert.match(denied.content, /^Read denied by the user/);
      assert.match(
        (await run("search_files", { pattern: "needle", path: "~/lib" }, "default", user)).content,
        /deep\/x\.txt:1:needle/,
      );
      assert.match(
        (await run("read_file", { path: "~/lib/deep/x.txt" }, "default", user)).content,
        /1\|needle/,
        "the session answer covers the subfolders",
      );
      assert.deepEqual(
        user.readRequests.map((r) => [r.folder, r.recursive]),
        [
          [join(userHome, "lib"), true],
          [join(userHome, "lib"), true],
        ],
      );
    });
  });
});

import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SANDBOX_SETTINGS } from "../../agent/config/tool-settings.js";
import { createFileTools } from "../../agent/tools/file/index.js";
import { isReadOnlyCommand } from "../../agent/tools/safety/command-readonly.js";
import type { SessionMode } from "../../agent/tools/safety/session-mode.js";
import { terminalTool } from "../../agent/tools/terminal/terminal-tool.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

const [, writeFile, patch] = createFileTools({ userHome: homedir(), env: {} });

describe("session modes", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  const envIn = (mode: SessionMode, user = new ScriptedUser(), sandbox = true) => {
    const root = temp.make("hermes-ws-");
    const settings = toolSettings(sandbox ? {} : { sandbox: { ...DEFAULT_SANDBOX_SETTINGS, enabled: false } });
    const env = toolEnvironment(root, temp.make(), user, settings);
    env.state.mode = mode;
    return { root, env, user };
  };

  it("default mode asks before every edit, with the diff, and a denial leaves the file alone", async () => {
    const { root, env, user } = envIn("default", new ScriptedUser([], [], true, [false, true]));
    writeFileSync(join(root, "a.txt"), "old\n");
    const denied = await runTool(patch!, { path: "a.txt", old_string: "old", new_string: "new" }, env);
    assert.equal(denied.isError, true);
    assert.match(denied.content, /^Edit approval denied by the user; the file was not modified\./);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "old\n");
    assert.deepEqual(user.editRequests[0]!.edits, [{ path: join(root, "a.txt"), oldText: "old\n", newText: "new\n" }]);
    const allowed = await runTool(writeFile!, { path: "b.txt", content: "fresh" }, env);
    assert.equal(allowed.isError, undefined);
    assert.deepEqual(user.editRequests[1]!.edits, [{ path: join(root, "b.txt"), oldText: null, newText: "fresh" }]);
  });

  it("accept-edits writes inside the workspace without asking, but asks for secrets and outside paths", async () => {
    const { root, env, user } = envIn("accept_edits", new ScriptedUser([], [], true, [false, false]));
    assert.equal((await runTool(writeFile!, { path: "src/x.ts", content: "x" }, env)).isError, undefined);
    assert.equal(user.editRequests.length, 0);
    await runTool(writeFile!, { path: ".env.local", content: "A=1" }, env);
    await runTool(writeFile!, { path: join(temp.make("elsewhere-"), "..", "..", "etc-like.txt"), content: "x" }, env);
    assert.equal(user.editRequests.length, 2);
    assert.equal(readFileSync(join(root, "src/x.ts"), "utf8"), "x");
  });

  it("accept-edits still asks before deleting a file (an editor cannot review a deletion as a diff)", async () => {
    const { root, env, user } = envIn("accept_edits", new ScriptedUser([], [], true, [false, true]));
    writeFileSync(join(root, "gone.txt"), "bye\n");
    const patchText = "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch";
    const refused = await runTool(patch!, { mode: "patch", patch: patchText }, env);
    assert.match(refused.content, /^Edit approval denied by the user/);
    assert.equal(readFileSync(join(root, "gone.txt"), "utf8"), "bye\n");
    assert.deepEqual(user.editRequests[0]!.edits, [{ path: join(root, "gone.txt"), oldText: "bye\n", newText: null }]);
    assert.equal((await runTool(patch!, { mode: "patch", patch: patchText }, env)).isError, undefined);
    assert.throws(() => readFileSync(join(root, "gone.txt")));
  });

  it("read-only mode without a sandbox refuses edits and commands with side effects, but runs read-only ones", async () => {
    const { root, env, user } = envIn("read_only", new ScriptedUser(), false);
    const edit = await runTool(writeFile!, { path: "a.txt", content: "x" }, env);
    assert.match(edit.content, /read-only mode/);
    const rm = JSON.parse((await runTool(terminalTool, { command: "touch made.txt" }, env)).content) as {
      error: string;
    };
    assert.match(rm.error, /read-only mode/);
    const ls = JSON.parse((await runTool(terminalTool, { command: "ls -la | wc -l" }, env)).content) as {
      error: string | null;
      exit_code: number;
    };
    assert.equal(ls.error, null);
    assert.equal(user.editRequests.length + user.commandRequests.length, 0);
    assert.throws(() => readFileSync(join(root, "made.txt")));
  });

  it("yolo never asks, but hardline commands still never run", async () => {
    const { root, env, user } = envIn("yolo");
    assert.equal((await runTool(writeFile!, { path: "a.txt", content: "x" }, env)).isError, undefined);
    const reset = JSON.parse(
      (await runTool(terminalTool, { command: "git reset --hard 2>/dev/null; true" }, env)).content,
    ) as { error: string | null };
    assert.equal(reset.error, null);
    const root2 = JSON.parse((await runTool(terminalTool, { command: "rm -rf /" }, env)).content) as { error: string };
    assert.match(root2.error, /^BLOCKED \(hardline\)/);
    assert.equal(user.commandRequests.length + user.editRequests.length, 0);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "x");
  });

  it("classifies read-only commands conservatively", () => {
    for (const ok of [
      "ls",
      "git status",
      "git log --oneline | head -5",
      "grep -rn foo src",
      "find . -name '*.ts'",
      "cat a && wc -l b",
    ])
      assert.ok(isReadOnlyCommand(ok), ok);
    for (const no of [
      "rm a",
      "echo x > f",
      "git commit -m x",
      "git branch -D x",
      "find . -delete",
      "npm install",
      "cat $(rm x)",
      "sort -o out in",
      "ls | tee f",
    ])
      assert.ok(!isReadOnlyCommand(no), no);
  });
});

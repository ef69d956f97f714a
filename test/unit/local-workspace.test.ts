import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import { WorkspaceError } from "../../agent/workspace/workspace.js";
import { TempDirs } from "../helpers/temp-dirs.js";

describe("LocalWorkspace never blocks on a named pipe", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("refuses to read or write a FIFO at once, even many at the same time (libuv's pool stays free)", async () => {
    const root = temp.make();
    const pipes = ["p1", "p2", "p3", "p4", "p5", "p6"].map((name) => join(root, name));
    execFileSync("mkfifo", pipes);
    const workspace = new LocalWorkspace(root);
    const started = Date.now();
    const outcomes = await Promise.allSettled([
      ...pipes.map((p) => workspace.readTextFile(p)),
      ...pipes.map((p) => workspace.readBytes(p, 64)),
      ...pipes.map((p) => workspace.writeTextFile(p, "x")),
    ]);
    assert.ok(Date.now() - started < 2000, "nothing waited for a writer or a reader");
    for (const outcome of outcomes) {
      assert.equal(outcome.status, "rejected");
      assert.ok(
        outcome.reason instanceof WorkspaceError && outcome.reason.code === "not_a_file",
        String(outcome.reason),
      );
    }
    // And the pool is free: an ordinary write and read still work.
    await workspace.writeTextFile(join(root, "plain.txt"), "fine\n");
    assert.equal(await workspace.readTextFile(join(root, "plain.txt")), "fine\n");
  });
});

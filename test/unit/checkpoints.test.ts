import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore } from "../../agent/checkpoints/checkpoint-store.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";

const read = (root: string, path: string) => readFileSync(join(root, path), "utf8");

describe("CheckpointStore: snapshot, list, diff, restore", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function setup(files: Record<string, string> = { "a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n" }) {
    const home = temp.make("hermes-cp-home-");
    const work = temp.make("hermes-cp-work-");
    writeTree(work, files);
    return { home, work, store: new CheckpointStore({ workingDir: work, hermesHome: home }) };
  }

  it("restores created, patched, deleted and added-by-command files exactly", async () => {
    const { work, store } = setup({ "patch.txt": "one\ntwo\n", "cmd.txt": "by command\n", "gone.txt": "keep me\n" });
    const snap = await store.snapshot({ reason: "before write_file", turn: 1 });
    assert.equal(snap.created, true);
    writeTree(work, { "created.txt": "new\n", "sub/deep/new.ts": "export {};\n" });
    writeFileSync(join(work, "patch.txt"), "one\nTWO\n");
    writeFileSync(join(work, "cmd.txt"), "edited by a command\n");
    unlinkSync(join(work, "gone.txt"));

    const result = await store.restore(1);
    assert.deepEqual(result.files, ["cmd.txt", "created.txt", "gone.txt", "patch.txt", "sub/deep/new.ts"]);
    assert.equal(read(work, "patch.txt"), "one\ntwo\n");
    assert.equal(read(work, "cmd.txt"), "by command\n");
    assert.equal(read(work, "gone.txt"), "keep me\n");
    assert.equal(existsSync(join(work, "created.txt")), false);
    assert.equal(existsSync(join(work, "sub")), false, "folders the restore emptied are removed too");
    assert.ok(result.preRollbackId, "the state before the restore was snapshotted");
  });

  it("restores one file alone, and removes one created file alone", async () => {
    const { work, store } = setup();
    await store.snapshot({ reason: "t1" });
    writeFileSync(join(work, "a.txt"), "changed a\n");
    writeFileSync(join(work, "b.txt"), "changed b\n");
    writeFileSync(join(work, "new.txt"), "new\n");
    const one = await store.restore(1, { paths: ["a.txt"] });
    assert.deepEqual(one.files, ["a.txt"]);
    assert.equal(read(work, "a.txt"), "alpha\n");
    assert.equal(read(work, "b.txt"), "changed b\n");
    assert.equal(read(work, "new.txt"), "new\n");
    // Numbers shift: the restore's own pre-rollback snapshot is now number 1.
    const entries = await store.list();
    assert.match(entries[0]?.reason ?? "", /^pre-rollback snapshot \(restoring to [0-9a-f]{8}\)$/);
    const removed = await store.restore(entries[1]?.id as string, { paths: ["new.txt"] });
    assert.deepEqual(removed.files, ["new.txt"]);
    assert.equal(existsSync(join(work, "new.txt")), false);
    assert.equal(read(work, "b.txt"), "changed b\n");
  });

  it("diff says what a restore would change, and changes nothing", async () => {
    const { work, store } = setup();
    await store.snapshot({ reason: "t1" });
    writeFileSync(join(work, "a.txt"), "alpha\nmore\n");
    unlinkSync(join(work, "b.txt"));
    writeFileSync(join(work, "d.txt"), "delta\n");
    const diff = await store.diff(1);
    assert.deepEqual(diff.changes, [
      { path: "a.txt", change: "modified" },
      { path: "b.txt", change: "deleted" },
      { path: "d.txt", change: "added" },
    ]);
    assert.match(diff.patch, /^\+more$/m);
    assert.match(diff.patch, /^-beta$/m);
    assert.match(diff.stat, /3 files changed/);
    assert.equal(read(work, "a.txt"), "alpha\nmore\n");
    assert.equal(existsSync(join(work, "b.txt")), false);
    assert.equal((await store.list()).length, 1, "a diff takes no snapshot");
  });

  it("a snapshot with nothing changed makes no commit and returns the latest id", async () => {
    const { work, store } = setup();
    const first = await store.snapshot({ reason: "t1" });
    const again = await store.snapshot({ reason: "t2" });
    assert.equal(again.created, false);
    assert.equal(again.created === false && again.skipped, "unchanged");
    assert.equal(again.id, first.id);
    assert.equal((await store.list()).length, 1);
    writeFileSync(join(work, "a.txt"), "changed\n");
    assert.equal((await store.snapshot({ reason: "t3" })).created, true);
    assert.equal((await store.list()).length, 2);
  });

  it("an empty directory yields no checkpoint", async () => {
    const { store } = setup({});
    const result = await store.snapshot();
    assert.deepEqual(result, { created: false, skipped: "empty" });
    assert.deepEqual(await store.list(), []);
  });

  it("keeps checkpoints.max_snapshots, newest first, with turns, times and files changed", async () => {
    const { home, work } = setup();
    const store = new CheckpointStore({ workingDir: work, hermesHome: home, maxSnapshots: 3 });
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(work, "a.txt"), `v${i}\n`);
      if (i === 4) writeFileSync(join(work, "b.txt"), "b changed too\n");
      await store.snapshot({ reason: `step-${i}`, turn: i, sessionId: "s1" });
    }
    const entries = await store.list();
    assert.deepEqual(
      entries.map((e) => [e.number, e.reason, e.turn, e.sessionId]),
      [
        [1, "step-5", 5, "s1"],
        [2, "step-4", 4, "s1"],
        [3, "step-3", 3, "s1"],
      ],
    );
    assert.deepEqual(
      entries.map((e) => e.filesChanged),
      [1, 2, 0],
    );
    assert.ok(entries.every((e) => !Number.isNaN(Date.parse(e.time))));
    // The history itself is cut, not just the listing.
    const oldest = await store.restore(3);
    assert.equal(read(work, "a.txt"), "v3\n");
    assert.equal(oldest.reason, "step-3");
  });

  it("a new instance (a restarted server) sees and restores the old checkpoints", async () => {
    const { home, work, store } = setup();
    const snap = await store.snapshot({ reason: "before patch", turn: 7 });
    writeFileSync(join(work, "a.txt"), "edited\n");
    const restarted = new CheckpointStore({ workingDir: work, hermesHome: home });
    const entries = await restarted.list();
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.id, snap.id);
    assert.equal(entries[0]?.turn, 7);
    await restarted.restore(snap.id as string);
    assert.equal(read(work, "a.txt"), "alpha\n");
  });

  it("an id superseded by pruning still resolves to its rewritten successor", async () => {
    const { home, work } = setup();
    const store = new CheckpointStore({ workingDir: work, hermesHome: home, maxSnapshots: 2 });
    await store.snapshot({ reason: "one" });
    writeFileSync(join(work, "a.txt"), "two\n");
    const second = await store.snapshot({ reason: "two" });
    writeFileSync(join(work, "a.txt"), "three\n");
    await store.snapshot({ reason: "three" });
    const entries = await store.list();
    assert.deepEqual(
      entries.map((e) => e.reason),
      ["three", "two"],
    );
    assert.notEqual(entries[1]?.id, second.id, "pruning rewrote the kept commits");
    assert.equal(await store.resolve(second.id as string), entries[1]?.id);
    assert.equal((await store.fileAt(second.id as string, "a.txt"))?.toString(), "two\n");
  });

  it("restore never touches excluded folders", async () => {
    const { work, store } = setup({ "src/x.ts": "x\n", "node_modules/pkg/index.js": "v1\n", ".git/HEAD": "ref\n" });
    await store.snapshot({ reason: "t1" });
    writeTree(work, {
      "src/x.ts": "changed\n",
      "node_modules/pkg/index.js": "v2\n",
      "node_modules/new/index.js": "n\n",
      ".git/HEAD": "other\n",
      "dist/out.js": "built\n",
    });
    const result = await store.restore(1);
    assert.deepEqual(result.files, ["src/x.ts"]);
    assert.equal(read(work, "src/x.ts"), "x\n");
    assert.equal(read(work, "node_modules/pkg/index.js"), "v2\n");
    assert.equal(read(work, "node_modules/new/index.js"), "n\n");
    assert.equal(read(work, ".git/HEAD"), "other\n");
    assert.equal(read(work, "dist/out.js"), "built\n");
    await assert.rejects(store.restore(1, { paths: ["node_modules/pkg/index.js"] }), /excluded folder/);
  });

  it("leaves files over max_file_size_mb out of checkpoints (and so out of restores)", async () => {
    const { home, work } = setup();
    writeFileSync(join(work, "big.bin"), Buffer.alloc(1024 * 1024 + 1, 1));
    writeFileSync(join(work, "at-cap.bin"), Buffer.alloc(1024 * 1024, 1));
    const store = new CheckpointStore({ workingDir: work, hermesHome: home, maxFileSizeMb: 1 });
    const snap = await store.snapshot();
    assert.equal(await store.fileAt(snap.id as string, "big.bin"), undefined);
    assert.equal((await store.fileAt(snap.id as string, "at-cap.bin"))?.length, 1024 * 1024);
    writeFileSync(join(work, "a.txt"), "changed\n");
    const result = await store.restore(1);
    assert.deepEqual(result.files, ["a.txt"]);
    assert.ok(existsSync(join(work, "big.bin")), "a file no checkpoint holds is never deleted");
  });

  it("stores a big first snapshot as one pack git verifies, with symlinks and executables intact", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`pkg${i % 7}/file${i}.txt`] = `content ${i}\n`;
    files["dup.txt"] = "content 1\n";
    const { home, work, store } = setup(files);
    symlinkSync("pkg1/file1.txt", join(work, "link.txt"));
    writeFileSync(join(work, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const snap = await store.snapshot();
    const gitDir = join(home, "checkpoints", "store");
    const env = { GIT_DIR: gitDir, PATH: process.env.PATH, GIT_CONFIG_GLOBAL: "/dev/null" };
    execFileSync("git", ["fsck", "--full", "--strict", "--no-dangling"], { env, stdio: "pipe" });
    assert.match(execFileSync("git", ["count-objects", "-v"], { env, encoding: "utf8" }), /^in-pack: 30[0-9]$/m);
    const tree = execFileSync("git", ["ls-tree", "-r", snap.id as string], { env, encoding: "utf8" });
    assert.match(tree, /^120000 blob [0-9a-f]{40}\tlink\.txt$/m);
    assert.match(tree, /^100755 blob [0-9a-f]{40}\trun\.sh$/m);
    rmSync(join(work, "pkg3"), { recursive: true });
    await store.restore(1);
    assert.equal(read(work, "pkg3/file3.txt"), "content 3\n");
    assert.equal(readlinkSync(join(work, "link.txt")), "pkg1/file1.txt");
  });

  it("rejects bad ids and paths the way upstream does", async () => {
    const { work, store } = setup();
    await assert.rejects(store.restore("abc123"), /No checkpoints exist/);
    await store.snapshot();
    await assert.rejects(store.restore("--patch"), /must not start with '-'/);
    await assert.rejects(store.restore("abc; rm -rf /"), /expected 4-64 hex characters/);
    await assert.rejects(store.diff("abc&def"), /expected 4-64 hex characters/);
    await assert.rejects(store.restore("deadbeef1234"), /not found/);
    await assert.rejects(store.restore(1, { paths: [join(work, "a.txt")] }), /got absolute path/);
    await assert.rejects(store.restore(1, { paths: ["../outside.txt"] }), /escapes the working directory/);
    rmSync(join(work, "a.txt"));
    assert.deepEqual((await store.restore(1, { paths: ["a.txt"] })).files, ["a.txt"]);
  });
});

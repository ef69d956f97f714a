import { strict as assert } from "node:assert";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore } from "../../agent/checkpoints/checkpoint-store.js";
import { GitMissingError } from "../../agent/checkpoints/git.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";

const cleanGitEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

describe("CheckpointStore: a hostile workspace, symlinks, no git", () => {
  const temp = new TempDirs();
  const savedEnv = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    temp.cleanup();
  });

  it("runs none of the workspace's hooks, fsmonitor, filters or textconv, nor git settings from the environment", async () => {
    const home = temp.make("hermes-cp-home-");
    const work = temp.make("hermes-cp-work-");
    const canary = join(temp.make("hermes-cp-canary-"), "ran");
    const evil = join(work, "evil.sh");
    writeFileSync(evil, `#!/bin/sh\necho "$0 $*" >> '${canary}'\ncat\n`);
    chmodSync(evil, 0o755);
    execFileSync("git", ["init", "-q", work], { env: cleanGitEnv });
    for (const hook of ["post-commit", "pre-commit", "post-checkout", "post-index-change", "reference-transaction"]) {
      writeFileSync(join(work, ".git", "hooks", hook), `#!/bin/sh\ntouch '${canary}'\n`);
      chmodSync(join(work, ".git", "hooks", hook), 0o755);
    }
    writeFileSync(
      join(work, ".git", "config"),
      `${readFileSync(join(work, ".git", "config"), "utf8")}[core]\n\tfsmonitor = ${evil}\n\thooksPath = .git/hooks\n` +
        `[filter "evil"]\n\tclean = ${evil}\n\tsmudge = ${evil}\n\trequired = true\n[diff "evil"]\n\ttextconv = ${evil}\n`,
    );
    writeTree(work, { ".gitattributes": "* filter=evil diff=evil\n", "a.txt": "one\n" });
    // Settings a parent process could pass down: all ignored by the checkpoint's git.
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: evil,
      GIT_CONFIG_PARAMETERS: `'core.hooksPath'='${join(work, ".git", "hooks")}'`,
      GIT_EXTERNAL_DIFF: evil,
      GIT_DIR: join(work, ".git"),
      GIT_INDEX_FILE: join(work, ".git", "index"),
    });

    const store = new CheckpointStore({ workingDir: work, hermesHome: home });
    await store.snapshot({ reason: "t1" });
    writeFileSync(join(work, "a.txt"), "two\n");
    writeFileSync(join(work, "b.txt"), "new\n");
    const diff = await store.diff(1);
    assert.match(diff.patch, /^\+two$/m, "the real content, not a textconv's");
    await store.snapshot({ reason: "t2" });
    await store.restore(2);
    await store.list();

    assert.equal(readFileSync(join(work, "a.txt"), "utf8"), "one\n");
    assert.equal(existsSync(join(work, "b.txt")), false);
    assert.equal(existsSync(canary), false, existsSync(canary) ? readFileSync(canary, "utf8") : "");
    // The workspace's own repository is untouched: no commit, no index from us.
    assert.equal(existsSync(join(work, ".git", "index")), false);
  });

  it("never writes or deletes through a symlink out of the workspace", async () => {
    const home = temp.make("hermes-cp-home-");
    const work = temp.make("hermes-cp-work-");
    const outside = temp.make("hermes-cp-outside-");
    writeTree(work, { "src/a.txt": "inside\n", "keep.txt": "k\n" });
    writeTree(outside, { "a.txt": "outside\n", "victim.txt": "victim\n" });
    const store = new CheckpointStore({ workingDir: work, hermesHome: home });
    await store.snapshot({ reason: "t1" });

    // The turn replaced src/ by a link out of the workspace and added a link to a file outside.
    rmSync(join(work, "src"), { recursive: true });
    symlinkSync(outside, join(work, "src"));
    symlinkSync(join(outside, "victim.txt"), join(work, "link.txt"));
    const result = await store.restore(1);

    assert.deepEqual(result.files, ["link.txt", "src", "src/a.txt"]);
    assert.equal(readFileSync(join(outside, "a.txt"), "utf8"), "outside\n");
    assert.equal(readFileSync(join(outside, "victim.txt"), "utf8"), "victim\n");
    assert.ok(lstatSync(join(work, "src")).isDirectory() && !lstatSync(join(work, "src")).isSymbolicLink());
    assert.equal(readFileSync(join(work, "src", "a.txt"), "utf8"), "inside\n");
    assert.equal(existsSync(join(work, "link.txt")), false);
  });

  it("refuses a file path that escapes through a symlinked folder", async () => {
    const home = temp.make("hermes-cp-home-");
    const work = temp.make("hermes-cp-work-");
    const outside = temp.make("hermes-cp-outside-");
    writeTree(work, { "a.txt": "a\n" });
    writeTree(outside, { "secret.txt": "secret\n" });
    const store = new CheckpointStore({ workingDir: work, hermesHome: home });
    await store.snapshot();
    symlinkSync(outside, join(work, "linked"));
    await assert.rejects(store.restore(1, { paths: ["linked/secret.txt"] }), /escapes the working directory/);
    assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "secret\n");
  });

  it("without git, says so with an error the caller can turn into a notice", async () => {
    const home = temp.make("hermes-cp-home-");
    const work = temp.make("hermes-cp-work-");
    writeTree(work, { "a.txt": "a\n" });
    const empty = temp.make("hermes-cp-nopath-");
    mkdirSync(empty, { recursive: true });
    process.env.PATH = empty;
    assert.equal(await CheckpointStore.gitAvailable(), false);
    const store = new CheckpointStore({ workingDir: work, hermesHome: home });
    await assert.rejects(store.snapshot(), (error: unknown) => {
      assert.ok(error instanceof GitMissingError);
      assert.match(error.message, /Checkpoints need git/);
      return true;
    });
  });

  it("waits for upstream's flock on HERMES_HOME/.checkpoints.lock, and serialises its own operations", async function () {
    if (spawnSync("sh", ["-c", "command -v flock"]).status !== 0) this.skip();
    const home = temp.make("hermes-cp-home-");
    const work = temp.make("hermes-cp-work-");
    writeTree(work, { "a.txt": "a\n" });
    const store = new CheckpointStore({ workingDir: work, hermesHome: home });
    await store.snapshot();
    // What a Python Hermes holds around its take (store_lock): flock(2) on the same file.
    const holder = spawn("flock", ["-x", join(home, ".checkpoints.lock"), "sh", "-c", "echo held; sleep 1.5"]);
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    const started = Date.now();
    writeFileSync(join(work, "a.txt"), "b\n");
    const [first, second] = await Promise.all([store.snapshot({ reason: "x" }), store.snapshot({ reason: "y" })]);
    assert.ok(Date.now() - started >= 1000, "the snapshot waited for the other holder");
    assert.deepEqual([first.created, second.created], [true, false], "one after the other: the second saw no change");
    assert.equal((await store.list()).length, 2);
  });

  it("never snapshots the home directory or the filesystem root", async () => {
    for (const dir of [process.env.HOME ?? "/root", "/"]) {
      const store = new CheckpointStore({ workingDir: dir, hermesHome: temp.make("hermes-cp-home-") });
      assert.deepEqual(await store.snapshot(), { created: false, skipped: "too_broad" });
    }
  });
});

/**
 * Cases ported from upstream Hermes' tests/tools/test_checkpoint_manager.py (v2 single store), plus the layout a
 * Python Hermes on the same HERMES_HOME depends on: it is replayed here with the git commands upstream runs.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore } from "../../agent/checkpoints/checkpoint-store.js";
import { DEFAULT_EXCLUDES, projectHash } from "../../agent/checkpoints/layout.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";

/** git as upstream's _run_git calls it: GIT_DIR = the store, GIT_WORK_TREE = the project, config isolated. */
function upstreamGit(store: string, work: string, args: string[], index?: string): string {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_DIR: store,
    GIT_WORK_TREE: work,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_SYSTEM: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    ...(index ? { GIT_INDEX_FILE: index } : {}),
  };
  return execFileSync("git", args, { cwd: work, env, encoding: "utf8" }).trim();
}

describe("CheckpointStore: upstream's test cases and on-disk layout", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function project(files: Record<string, string> = { "main.py": "print('hello')\n", "README.md": "# Project\n" }) {
    const home = temp.make("hermes-cp-home-");
    const work = realpathSync(temp.make("hermes-cp-project-"));
    writeTree(work, files);
    return { home, work, base: join(home, "checkpoints"), store: join(home, "checkpoints", "store") };
  }

  it("lays the store out as upstream: one bare store, refs/hermes/<sha256[:16]>, indexes, projects, info/exclude", async () => {
    const { home, work, base, store } = project();
    const hash = createHash("sha256").update(work).digest("hex").slice(0, 16);
    assert.equal(projectHash(work), hash);
    await new CheckpointStore({ workingDir: work, hermesHome: home }).snapshot({ reason: "first" });
    assert.ok(existsSync(join(store, "HEAD")) && existsSync(join(store, "objects")));
    assert.equal(readFileSync(join(store, "info", "exclude"), "utf8"), `${DEFAULT_EXCLUDES.join("\n")}\n`);
    assert.ok(existsSync(join(store, "indexes", hash)));
    assert.equal(existsSync(join(work, ".git")), false, "the project never becomes a git repository");
    const meta = JSON.parse(readFileSync(join(store, "projects", `${hash}.json`), "utf8")) as Record<string, unknown>;
    assert.equal(meta.workdir, work);
    assert.equal(typeof meta.created_at, "number");
    assert.equal(typeof meta.last_touch, "number");
    assert.ok(Number.isInteger(meta.workdir_parent_dev) && Number.isInteger(meta.workdir_parent_ino));
    for (const key of ["commit.gpgsign", "tag.gpgSign", "gc.auto", "user.name", "user.email"]) {
      const value = execFileSync("git", ["config", "--file", join(store, "config"), "--get", key], {
        encoding: "utf8",
      });
      assert.equal(
        value.trim(),
        { "gc.auto": "0", "user.name": "Hermes Checkpoint", "user.email": "hermes@local" }[key] ?? "false",
      );
    }
    assert.deepEqual(readdirSync(base).sort(), ["store"]);
    // What upstream's list_checkpoints runs, on what this wrote.
    const line = upstreamGit(store, work, ["log", `refs/hermes/${hash}`, "--format=%H|%h|%aI|%s", "-n", "20"]);
    assert.match(line, /^[0-9a-f]{40}\|[0-9a-f]{7,}\|\d{4}-\d\d-\d\dT[^|]+\|first$/);
    assert.equal(
      upstreamGit(store, work, ["log", "-1", "--format=%an <%ae>", `refs/hermes/${hash}`]),
      "Hermes Checkpoint <hermes@local>",
    );
  });

  it("sees and restores a snapshot upstream's _take made, and keeps snapshotting after upstream reset the index", async () => {
    const { home, work, store } = project();
    const cp = new CheckpointStore({ workingDir: work, hermesHome: home });
    const first = await cp.snapshot({ reason: "ours" });
    const hash = projectHash(work);
    const ref = `refs/hermes/${hash}`;
    const index = join(store, "indexes", hash);
    // Upstream's _take: read-tree the ref tip, add -A, write-tree, commit-tree -p tip, update-ref with old value.
    writeFileSync(join(work, "main.py"), "print('python edit')\n");
    upstreamGit(store, work, ["read-tree", first.id as string], index);
    upstreamGit(store, work, ["add", "-A"], index);
    const tree = upstreamGit(store, work, ["write-tree"], index);
    const commit = upstreamGit(store, work, [
      "commit-tree",
      tree,
      "-p",
      first.id as string,
      "-m",
      "before write_file",
      "--no-gpg-sign",
    ]);
    upstreamGit(store, work, ["update-ref", ref, commit, first.id as string]);

    const entries = await cp.list();
    assert.deepEqual(
      entries.map((e) => e.reason),
      ["before write_file", "ours"],
    );
    assert.equal(entries[0]?.filesChanged, 1);
    writeFileSync(join(work, "main.py"), "print('ours again')\n");
    assert.equal((await cp.snapshot({ reason: "after python" })).created, true);
    await cp.restore(entries[0]?.id as string);
    assert.equal(readFileSync(join(work, "main.py"), "utf8"), "print('python edit')\n");
  });

  it("moves pre-v2 per-directory repositories into legacy-<timestamp>/ on first use", async () => {
    const { home, work, base } = project();
    writeTree(join(base, "deadbeefcafebabe"), { HEAD: "ref: refs/heads/main\n", HERMES_WORKDIR: `${work}\n` });
    mkdirSync(join(base, "deadbeefcafebabe", "objects"));
    await new CheckpointStore({ workingDir: work, hermesHome: home }).snapshot();
    const legacy = readdirSync(base).filter((name) => name.startsWith("legacy-"));
    assert.equal(legacy.length, 1);
    assert.match(legacy[0] as string, /^legacy-\d{8}-\d{6}$/);
    assert.ok(existsSync(join(base, legacy[0] as string, "deadbeefcafebabe", "HEAD")));
    assert.equal(existsSync(join(base, "deadbeefcafebabe")), false);
  });

  it("projects share one store but list separately", async () => {
    const { home } = project();
    const a = temp.make("proj-a-");
    const b = temp.make("proj-b-");
    writeTree(a, { "f.py": "a\n" });
    writeTree(b, { "g.py": "b\n" });
    await new CheckpointStore({ workingDir: a, hermesHome: home }).snapshot({ reason: "A-1" });
    await new CheckpointStore({ workingDir: b, hermesHome: home }).snapshot({ reason: "B-1" });
    const projects = readdirSync(join(home, "checkpoints", "store", "projects")).sort();
    assert.deepEqual(projects, [`${projectHash(a)}.json`, `${projectHash(b)}.json`].sort());
    const listA = await new CheckpointStore({ workingDir: a, hermesHome: home }).list();
    const listB = await new CheckpointStore({ workingDir: b, hermesHome: home }).list();
    assert.deepEqual(
      listA.map((e) => e.reason),
      ["A-1"],
    );
    assert.deepEqual(
      listB.map((e) => e.reason),
      ["B-1"],
    );
    // A checkpoint of another project is not one of this project's.
    await assert.rejects(
      new CheckpointStore({ workingDir: a, hermesHome: home }).restore(listB[0]?.id as string),
      /not found/,
    );
  });

  it("lists newest first; new snapshots need changes (test_new_turn_resets_dedup_but_needs_changes)", async () => {
    const { home, work } = project();
    const cp = new CheckpointStore({ workingDir: work, hermesHome: home });
    assert.deepEqual(await cp.list(), []);
    await cp.snapshot({ reason: "first" });
    assert.equal((await cp.snapshot({ reason: "no changes" })).created, false);
    writeFileSync(join(work, "main.py"), "v2\n");
    await cp.snapshot({ reason: "second" });
    writeFileSync(join(work, "main.py"), "v3\n");
    await cp.snapshot({ reason: "third" });
    assert.deepEqual(
      (await cp.list()).map((e) => e.reason),
      ["third", "second", "first"],
    );
  });

  it("a ~ path names the same project (test_tilde_path_supports_diff_and_restore_flow)", async () => {
    const { home } = project();
    const inHome = realpathSync(temp.make("hermes-cp-tilde-", process.env.HOME));
    writeTree(inHome, { "main.py": "original\n" });
    const tilde = `~/${inHome.slice(realpathSync(process.env.HOME as string).length + 1)}`;
    assert.equal(projectHash(tilde), projectHash(inHome));
    const cp = new CheckpointStore({ workingDir: tilde, hermesHome: home });
    await cp.snapshot({ reason: "initial" });
    writeFileSync(join(inHome, "main.py"), "changed\n");
    const entries = await new CheckpointStore({ workingDir: inHome, hermesHome: home }).list();
    assert.equal(entries.length, 1);
    assert.match((await cp.diff(entries[0]?.id as string)).patch, /main\.py/);
    await cp.restore(entries[0]?.id as string);
    assert.equal(readFileSync(join(inHome, "main.py"), "utf8"), "original\n");
  });

  it("ignores a user's global gpgsign with a broken gpg (test_checkpoint_works_with_global_gpgsign_and_broken_gpg)", async () => {
    const { home, work } = project();
    const fakeHome = temp.make("hermes-cp-fakehome-");
    const gitconfig = join(fakeHome, ".gitconfig");
    writeFileSync(gitconfig, "[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = /nonexistent/fake-gpg\n");
    const saved = { HOME: process.env.HOME, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL };
    process.env.HOME = fakeHome;
    process.env.GIT_CONFIG_GLOBAL = gitconfig;
    try {
      const cp = new CheckpointStore({ workingDir: work, hermesHome: home });
      assert.equal((await cp.snapshot({ reason: "with-global-gpgsign" })).created, true);
      assert.equal((await cp.list()).length, 1);
    } finally {
      Object.assign(process.env, saved);
      if (saved.GIT_CONFIG_GLOBAL === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    }
  });

  it("repairs non-object project metadata (TestTouchProjectMalformedMeta)", async () => {
    const { home, work, store } = project();
    const meta = join(store, "projects", `${projectHash(work)}.json`);
    mkdirSync(join(store, "projects"), { recursive: true });
    writeFileSync(meta, "[]");
    await new CheckpointStore({ workingDir: work, hermesHome: home }).snapshot();
    const data = JSON.parse(readFileSync(meta, "utf8")) as Record<string, unknown>;
    assert.ok("last_touch" in data && "workdir" in data);
  });

  it("restores nested files one at a time (test_restore_file_path_confined_to_working_dir)", async () => {
    const { home, work } = project();
    const cp = new CheckpointStore({ workingDir: work, hermesHome: home });
    await cp.snapshot({ reason: "initial" });
    writeTree(work, { "subdir/test.txt": "hello" });
    await cp.snapshot({ reason: "second" });
    writeFileSync(join(work, "subdir", "test.txt"), "changed");
    const result = await cp.restore(1, { paths: ["subdir/test.txt"] });
    assert.deepEqual(result.files, ["subdir/test.txt"]);
    assert.equal(readFileSync(join(work, "subdir", "test.txt"), "utf8"), "hello");
  });
});

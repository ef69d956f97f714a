/**
 * Checkpoint cost on a 10,000-file workspace: `npx tsx bench/checkpoints.ts`. Generates the workspace (100 folders ×
 * 100 small source files, plus a node_modules the snapshot must skip) in a temp folder with its own HERMES_HOME, then
 * times the first snapshot (store creation and hashing everything), warm snapshots after a turn edited a few files,
 * snapshots with nothing changed, list, diff and a restore. Goal: warm snapshot ≤ 150 ms median; nothing changed →
 * no commit. Writes bench/results/checkpoints-latest.json.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { CheckpointStore } from "../agent/checkpoints/checkpoint-store.js";

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const RUNS = 15;
const TARGET_WARM_MS = 150;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const round = (ms: number) => Math.round(ms * 10) / 10;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

function makeWorkspace(root: string): void {
  for (let d = 0; d < FOLDERS; d++) {
    const dir = join(root, "src", `module${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_FOLDER; f++) {
      writeFileSync(join(dir, `file${f}.ts`), `export const value${f} = ${d * FILES_PER_FOLDER + f};\n// padding\n`);
    }
  }
  for (let i = 0; i < 500; i++) {
    const dir = join(root, "node_modules", `pkg${i % 50}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `index${i}.js`), "module.exports = 1;\n");
  }
}

/** What starting one git process costs right now: the floor under every figure on a shared, loaded machine. */
async function spawnBaseline(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [ms] = await timed(
      () =>
        new Promise<void>((resolve) => spawn("git", ["--version"], { stdio: "ignore" }).on("close", () => resolve())),
    );
    times.push(ms);
  }
  return median(times);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "hermes-bench-checkpoints-"));
  try {
    const home = join(root, "hermes-home");
    const work = join(root, "workspace");
    makeWorkspace(work);
    const store = new CheckpointStore({ workingDir: work, hermesHome: home, maxSnapshots: 20 });

    const [firstMs, first] = await timed(() => store.snapshot({ reason: "first", turn: 0 }));
    if (!first.created) throw new Error(`first snapshot made nothing: ${JSON.stringify(first)}`);

    const warm: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      // A turn's worth of edits: two files changed, one created.
      writeFileSync(join(work, "src", `module${run}`, "file1.ts"), `export const changed = ${run};\n`);
      writeFileSync(join(work, "src", `module${run + 1}`, "file2.ts"), `export const changed = ${run};\n`);
      writeFileSync(join(work, "src", `new${run}.ts`), "export {};\n");
      const [ms, result] = await timed(() => store.snapshot({ reason: "before write_file", turn: run }));
      if (!result.created) throw new Error("warm snapshot saw no change");
      warm.push(ms);
    }

    const commitsBefore = (await store.list()).length;
    const unchanged: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const [ms, result] = await timed(() => store.snapshot({ reason: "nothing changed" }));
      if (result.created) throw new Error("a snapshot with nothing changed made a commit");
      unchanged.push(ms);
    }
    const commitsMade = (await store.list()).length - commitsBefore;

    const [listMs, entries] = await timed(() => store.list());
    writeFileSync(join(work, "src", "module50", "file50.ts"), "changed for diff\n");
    unlinkSync(join(work, "src", "module51", "file51.ts"));
    writeFileSync(join(work, "src", "brand-new.ts"), "new\n");
    const [diffMs, diff] = await timed(() => store.diff(1));
    const [restoreMs, restored] = await timed(() => store.restore(1));

    const results = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "", loadavg: loadavg().map(round) },
      workspace: { files: FOLDERS * FILES_PER_FOLDER, excludedNodeModulesFiles: 500 },
      runs: RUNS,
      gitSpawnBaselineMs: round(await spawnBaseline()),
      gitProcessesPerSnapshot: {
        warm: 2,
        unchanged: 1,
        note: "add -A, write-tree (skipped when the index is unchanged)",
      },
      firstSnapshotMs: round(firstMs),
      warmSnapshotMs: { median: round(median(warm)), min: round(Math.min(...warm)), max: round(Math.max(...warm)) },
      unchangedSnapshotMs: {
        median: round(median(unchanged)),
        min: round(Math.min(...unchanged)),
        max: round(Math.max(...unchanged)),
        commitsMade,
      },
      listMs: round(listMs),
      listedEntries: entries.length,
      diffMs: round(diffMs),
      diffChanges: diff.changes.length,
      restoreMs: round(restoreMs),
      restoredFiles: restored.files.length,
      targetWarmMs: TARGET_WARM_MS,
      warmWithinTarget: median(warm) <= TARGET_WARM_MS,
    };
    console.log(JSON.stringify(results, null, 2));
    const out = join("bench", "results", "checkpoints-latest.json");
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();

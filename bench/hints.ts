/**
 * Subdirectory-hint lookups on a generated tree of 200,000 files: time per tool call (median and p99). A lookup
 * must cost O(path depth) stat calls, whatever the size of the repository. Run: `npx tsx bench/hints.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SubdirectoryHintTracker } from "../agent/context/subdirectory-hints.js";

const TOP = 100;
const MID = 40;
const FILES = 50; // 100 × 40 × 50 = 200,000 files

function generate(root: string): void {
  for (let a = 0; a < TOP; a++) {
    for (let b = 0; b < MID; b++) {
      const dir = join(root, `pkg${a}`, "src", `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < FILES; f++) writeFileSync(join(dir, `file${f}.ts`), "");
      if (b % 10 === 0) writeFileSync(join(dir, "AGENTS.md"), `rules for pkg${a}/mod${b}`);
    }
    writeFileSync(join(root, `pkg${a}`, "AGENTS.md"), `rules for pkg${a}`);
  }
}

const root = mkdtempSync(join(tmpdir(), "hermes-hints-bench-"));
try {
  const t0 = performance.now();
  generate(root);
  process.stdout.write(`generated ${TOP * MID * FILES} files in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const tracker = new SubdirectoryHintTracker(root, { userHome: tmpdir(), hermesHome: join(root, ".no-hermes") });
  const samples: number[] = [];
  let hits = 0;
  for (let i = 0; i < 20_000; i++) {
    const a = (i * 7919) % TOP;
    const b = (i * 104_729) % MID;
    const path = `pkg${a}/src/mod${b}/file${i % FILES}.ts`;
    const t = performance.now();
    if (tracker.checkToolCall("read_file", { path })) hits++;
    samples.push(performance.now() - t);
  }
  samples.sort((x, y) => x - y);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(4);
  process.stdout.write(
    `tool calls: ${samples.length}, with new hints: ${hits}\nper call: median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms\n`,
  );
  const results = {
    date: new Date().toISOString(),
    files: TOP * MID * FILES,
    calls: samples.length,
    hits,
    medianMs: Number(at(0.5)),
    p99Ms: Number(at(0.99)),
  };
  writeFileSync(join(__dirname, "results", "hints-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}

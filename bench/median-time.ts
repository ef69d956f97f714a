import { performance } from "node:perf_hooks";

/** Median milliseconds of `fn` over `runs` runs, after three warm-up runs (JIT, caches, lazily built patterns). */
export function medianMs(fn: () => void, runs: number): number {
  for (let i = 0; i < 3; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

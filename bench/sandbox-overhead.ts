/**
 * What the OS sandbox adds to a command: `npx tsx bench/sandbox-overhead.ts`. Runs `true` through the terminal tool
 * path's pieces (policy built from the session, launcher, LocalWorkspace spawn, exit awaited) 60 times contained and
 * 60 times unconfined, interleaved so that machine noise hits both alike, and reports the medians and their
 * difference. Also times building the policy alone (the stat calls it makes per command). Target: ≤ 15 ms median
 * added per command. Writes bench/results/sandbox-latest.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sandboxLauncher } from "../agent/sandbox/sandbox-launcher.js";
import { buildSandboxPolicy } from "../agent/sandbox/sandbox-policy.js";
import { probeSandbox } from "../agent/sandbox/sandbox-probe.js";
import { LocalWorkspace } from "../agent/workspace/local-workspace.js";
import type { CommandSpec } from "../agent/workspace/workspace.js";

const RUNS = 60;
const TARGET_MS = 15;

async function timeCommand(workspace: LocalWorkspace, spec: CommandSpec): Promise<number> {
  const start = performance.now();
  await workspace.runCommand(spec).exited;
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const sandbox = await probeSandbox();
  if (!sandbox.available) {
    console.log(`no sandbox here: ${sandbox.reason}`);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "hermes-bench-sandbox-"));
  const workspace = new LocalWorkspace(root);
  const policyInput = {
    access: "workspace_write" as const,
    workspaceRoot: root,
    home: homedir(),
    hermesHome: join(homedir(), ".hermes"),
    tmp: tmpdir(),
    network: "allow" as const,
    extraWritable: [],
  };
  const contained: number[] = [];
  const plain: number[] = [];
  const policyTimes: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    const launcher = sandboxLauncher(sandbox, buildSandboxPolicy(policyInput), root);
    const built = performance.now() - t0;
    const withSandbox = await timeCommand(workspace, { command: "true", cwd: root, launcher });
    const without = await timeCommand(workspace, { command: "true", cwd: root });
    if (i < 3) continue; // warm-up
    policyTimes.push(built);
    contained.push(withSandbox + built);
    plain.push(without);
  }
  rmSync(root, { recursive: true, force: true });
  const result = {
    date: new Date().toISOString(),
    cpus: cpus().length,
    sandbox: `${sandbox.kind} ${sandbox.program}`,
    runs: RUNS,
    unconfinedMedianMs: +median(plain).toFixed(2),
    containedMedianMs: +median(contained).toFixed(2),
    addedMedianMs: +(median(contained) - median(plain)).toFixed(2),
    policyBuildMedianMs: +median(policyTimes).toFixed(3),
    targetMs: TARGET_MS,
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join("bench", "results"), { recursive: true });
  writeFileSync(join("bench", "results", "sandbox-latest.json"), `${JSON.stringify(result, null, 2)}\n`);
}

void main();

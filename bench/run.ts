/**
 * Benchmarks, run with `npm run bench`. Measures what the standards name (spawn to initialize reply, session/new,
 * memory after session/new, a turn against a zero-latency scripted model, a turn that reads a file with read_file) and
 * the hot paths of the prompt builder (threat scan of a 20,000-character file, context discovery). Prints a table and
 * writes bench/results/latest.json.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { discoverProjectContext } from "../agent/prompt/project-context.js";
import { scanForThreats, scanWhole } from "../agent/security/threat-scanner.js";
import { ScriptedLlm, scriptedCall } from "../test/fixtures/scripted-llm.js";
import { SERVER_BIN } from "../test/helpers/acp-harness.js";
import { hermesHomeFor, writeTree } from "../test/helpers/temp-dirs.js";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface ServerRun {
  initializeMs: number;
  sessionNewMs: number;
  rssMbAfterSessionNew: number;
  promptMs: number[];
  /** Turns in which the model reads a file with read_file and then answers (two model calls and one tool run). */
  readTurnMs: number[];
}

/** One server process driven over raw stdio (no client SDK in the way of the timings). */
async function runServerOnce(
  home: string,
  workspace: string,
  turns: number,
  pauseMs = 0,
  readTurns = 0,
): Promise<ServerRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_BIN], {
    env: { PATH: process.env.PATH, HOME: home, HERMES_HOME: home },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let buffer = "";
  const waiting = new Map<number, (value: unknown) => void>();
  child.stdout.on("data", (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffer.slice(0, nl)) as { id?: number; result?: unknown };
      buffer = buffer.slice(nl + 1);
      if (typeof message.id === "number") waiting.get(message.id)?.(message.result);
    }
  });
  let nextId = 0;
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve as (value: unknown) => void);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const initializeMs = performance.now() - started;
  if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  const t0 = performance.now();
  const { sessionId } = await request("session/new", { cwd: workspace, mcpServers: [] });
  const sessionNewMs = performance.now() - t0;
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const rssMbAfterSessionNew = Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  const promptMs: number[] = [];
  for (let i = 0; i < turns; i++) {
    const t = performance.now();
    await request("session/prompt", { sessionId, prompt: [{ type: "text", text: `turn ${i}` }] });
    promptMs.push(performance.now() - t);
  }
  const readTurnMs: number[] = [];
  for (let i = 0; i < readTurns; i++) {
    const t = performance.now();
    await request("session/prompt", { sessionId, prompt: [{ type: "text", text: `read ${i}` }] });
    readTurnMs.push(performance.now() - t);
  }
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  return { initializeMs, sessionNewMs, rssMbAfterSessionNew, promptMs, readTurnMs };
}

function timePerCall(fn: () => void, iterations: number): number {
  for (let i = 0; i < Math.min(50, iterations); i++) fn();
  const t = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return (performance.now() - t) / iterations;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "hermes-bench-"));
  const llm = await ScriptedLlm.start();
  try {
    const home = hermesHomeFor(join(root, "home"), llm.baseUrl);
    const workspace = join(root, "ws");
    const agents = readFileSync(join(__dirname, "../../shared/corpus/benign/029__withastro__astro__AGENTS.md"), "utf8");
    writeTree(workspace, { ".git/HEAD": "ref: main", "AGENTS.md": agents, "CLAUDE.md": "shadowed" });

    const runs: ServerRun[] = [];
    const TURNS = 20;
    const READ_TURNS = 10;
    for (let i = 0; i < 7; i++) {
      const turns = i === 0 ? 1 : TURNS;
      const reads = i === 0 ? 0 : READ_TURNS;
      for (let t = 0; t < turns; t++) llm.enqueue({ kind: "text", chunks: ["ok"] });
      for (let t = 0; t < reads; t++)
        llm.enqueue(
          { kind: "tool_calls", calls: [scriptedCall(`r${t}`, "read_file", { path: "AGENTS.md" })] },
          { kind: "text", chunks: ["read it"] },
        );
      runs.push(await runServerOnce(home, workspace, turns, 0, reads));
    }
    const measured = runs.slice(1);
    // As an editor that opens a thread a moment after starting the agent (the engine has loaded in the background).
    const idle: ServerRun[] = [];
    for (let i = 0; i < 5; i++) {
      for (let t = 0; t < 2; t++) llm.enqueue({ kind: "text", chunks: ["ok"] });
      idle.push(await runServerOnce(home, workspace, 1, 300));
    }
    const firstTurn = runs.map((r) => r.promptMs[0]!);
    const laterTurns = measured.flatMap((r) => r.promptMs.slice(1));

    const file20k = agents.repeat(Math.ceil(20_000 / agents.length)).slice(0, 20_000);
    const results = {
      date: new Date().toISOString(),
      node: process.version,
      spawnToInitializeMs: median(measured.map((r) => r.initializeMs)),
      sessionNewRightAfterInitializeMs: median(measured.map((r) => r.sessionNewMs)),
      sessionNew300msAfterInitializeMs: median(idle.map((r) => r.sessionNewMs)),
      firstPrompt300msAfterSessionNewMs: median(idle.map((r) => r.promptMs[0]!)),
      rssMbAfterSessionNew: median(measured.map((r) => r.rssMbAfterSessionNew)),
      firstPromptRoundTripMs: median(firstTurn),
      laterPromptRoundTripMs: median(laterTurns),
      readToolRoundTripMs: median(measured.flatMap((r) => r.readTurnMs)),
      scan20kCharsMs: timePerCall(() => scanForThreats(file20k, "context"), 500),
      scanWhole20kCharsMs: timePerCall(() => scanWhole(file20k, "context"), 500),
      discoverProjectContextMs: timePerCall(() => discoverProjectContext(workspace, 20_000), 500),
    };
    const rows = Object.entries(results).map(([k, v]) => `${k.padEnd(36)} ${typeof v === "number" ? v.toFixed(3) : v}`);
    process.stdout.write(`${rows.join("\n")}\n`);
    writeFileSync(join(__dirname, "results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}

void main();

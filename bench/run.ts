/**
 * Benchmarks, run with `npm run bench`. Measures what the standards name (spawn to initialize reply, session/new,
 * memory after session/new, a turn against a zero-latency scripted model, a turn that reads a file with read_file, a
 * turn 1.5 s after start) for our server AND for the floor agent (bench/floor-agent.mjs: the same ACP SDK and LLM SDK,
 * nothing else) in the same run, alternating, so each figure stands next to the floor it is judged against. Also the
 * hot paths of the prompt builder (threat scan of a 20,000-character file, context discovery). Prints a table and
 * writes bench/results/latest.json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { discoverProjectContext } from "../agent/prompt/project-context.js";
import { scanForThreats, scanWhole } from "../agent/security/threat-scanner.js";
import { ScriptedLlm, scriptedCall } from "../test/fixtures/scripted-llm.js";
import { hermesHomeFor, writeTree } from "../test/helpers/temp-dirs.js";
import {
  type AgentCommand,
  floorAgent,
  hermesAgent,
  median,
  pause,
  SAMPLE_CONTEXT_FILE,
  startAgent,
} from "./acp-driver.js";

interface AgentRun {
  initializeMs: number;
  sessionNewMs: number;
  rssMbAfterSessionNew: number;
  promptMs: number[];
  /** Turns in which the model reads a file with read_file and then answers (two model calls and one tool run). */
  readTurnMs: number[];
}

const prompt = (sessionId: unknown, text: string) => ({ sessionId, prompt: [{ type: "text", text }] });

/** Spawn, initialize, session/new at once, then text turns and read turns back to back. */
async function runBackToBack(command: AgentCommand, cwd: string, turns: number, readTurns: number): Promise<AgentRun> {
  const agent = await startAgent(command);
  const t0 = performance.now();
  const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
  const sessionNewMs = performance.now() - t0;
  const rssMbAfterSessionNew = agent.rssMb();
  const promptMs: number[] = [];
  for (let i = 0; i < turns; i++) promptMs.push(await agent.timed("session/prompt", prompt(sessionId, `turn ${i}`)));
  const readTurnMs: number[] = [];
  for (let i = 0; i < readTurns; i++)
    readTurnMs.push(await agent.timed("session/prompt", prompt(sessionId, `read ${i}`)));
  await agent.close();
  return { initializeMs: agent.initializeMs, sessionNewMs, rssMbAfterSessionNew, promptMs, readTurnMs };
}

interface PacedRun {
  sessionNewMs: number;
  /** A short text turn sent 1.5 s after spawn: whatever the agent does in the background then, the turn meets it. */
  turnAt1500msMs: number;
}

/** As an editor: session/new 300 ms after initialize, the first prompt 1.5 s after spawn. */
async function runPaced(command: AgentCommand, cwd: string): Promise<PacedRun> {
  const spawned = performance.now();
  const agent = await startAgent(command);
  await pause(300);
  const t0 = performance.now();
  const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
  const sessionNewMs = performance.now() - t0;
  await pause(Math.max(0, 1500 - (performance.now() - spawned)));
  const turnAt1500msMs = await agent.timed("session/prompt", prompt(sessionId, "hi"));
  await agent.close();
  return { sessionNewMs, turnAt1500msMs };
}

function timePerCall(fn: () => void, iterations: number): number {
  for (let i = 0; i < Math.min(50, iterations); i++) fn();
  const t = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return (performance.now() - t) / iterations;
}

const RUNS = 7;
const TURNS = 20;
const READ_TURNS = 10;
const PACED_RUNS = 5;

function summary(runs: readonly AgentRun[], paced: readonly PacedRun[]) {
  return {
    spawnToInitializeMs: median(runs.map((r) => r.initializeMs)),
    sessionNewRightAfterInitializeMs: median(runs.map((r) => r.sessionNewMs)),
    sessionNew300msAfterInitializeMs: median(paced.map((r) => r.sessionNewMs)),
    rssMbAfterSessionNew: median(runs.map((r) => r.rssMbAfterSessionNew)),
    firstPromptRoundTripMs: median(runs.map((r) => r.promptMs[0]!)),
    laterPromptRoundTripMs: median(runs.flatMap((r) => r.promptMs.slice(1))),
    turn1500msAfterSpawnMs: median(paced.map((r) => r.turnAt1500msMs)),
    readToolRoundTripMs: median(runs.flatMap((r) => r.readTurnMs)),
  };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "hermes-bench-"));
  const llm = await ScriptedLlm.start();
  try {
    const home = hermesHomeFor(join(root, "home"), llm.baseUrl);
    const workspace = join(root, "ws");
    const agents = readFileSync(SAMPLE_CONTEXT_FILE, "utf8");
    writeTree(workspace, { ".git/HEAD": "ref: main", "AGENTS.md": agents, "CLAUDE.md": "shadowed" });
    const commands = [hermesAgent(home), floorAgent(llm.baseUrl)];
    const runs = new Map(commands.map((c) => [c.label, [] as AgentRun[]]));
    const paced = new Map(commands.map((c) => [c.label, [] as PacedRun[]]));
    // Run 0 warms the disk cache and is left out; the two agents alternate, so load on the machine hits both.
    for (let i = 0; i <= RUNS; i++) {
      for (const command of commands) {
        for (let t = 0; t < TURNS; t++) llm.enqueue({ kind: "text", chunks: ["ok"] });
        for (let t = 0; t < READ_TURNS; t++)
          llm.enqueue(
            { kind: "tool_calls", calls: [scriptedCall(`r${t}`, "read_file", { path: "AGENTS.md" })] },
            { kind: "text", chunks: ["read it"] },
          );
        const run = await runBackToBack(command, workspace, TURNS, READ_TURNS);
        if (i > 0) runs.get(command.label)!.push(run);
      }
    }
    for (let i = 0; i < PACED_RUNS; i++) {
      for (const command of commands) {
        llm.enqueue({ kind: "text", chunks: ["ok"] });
        paced.get(command.label)!.push(await runPaced(command, workspace));
      }
    }
    const ours = summary(runs.get("hermes")!, paced.get("hermes")!);
    const floor = summary(runs.get("floor")!, paced.get("floor")!);
    const file20k = agents.repeat(Math.ceil(20_000 / agents.length)).slice(0, 20_000);
    const results = {
      date: new Date().toISOString(),
      node: process.version,
      method: `medians of ${RUNS} runs per agent (after one warm-up), agents alternating; ${PACED_RUNS} paced runs`,
      hermes: ours,
      floor,
      ratioToFloor: Object.fromEntries(
        Object.entries(ours).map(([k, v]) => [k, Number((v / floor[k as keyof typeof floor]).toFixed(2))]),
      ),
      promptBuilder: {
        scan20kCharsMs: timePerCall(() => scanForThreats(file20k, "context"), 500),
        scanWhole20kCharsMs: timePerCall(() => scanWhole(file20k, "context"), 500),
        discoverProjectContextMs: timePerCall(() => discoverProjectContext(workspace, 20_000), 500),
      },
    };
    const rows = Object.keys(ours).map(
      (k) =>
        `${k.padEnd(36)} ${ours[k as keyof typeof ours].toFixed(1).padStart(8)} ${floor[k as keyof typeof floor].toFixed(1).padStart(8)}`,
    );
    process.stdout.write(`${"".padEnd(36)} ${"hermes".padStart(8)} ${"floor".padStart(8)}\n${rows.join("\n")}\n`);
    process.stdout.write(`${JSON.stringify(results.promptBuilder)}\n`);
    writeFileSync(join(__dirname, "results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}

void main();

/**
 * The long session (#23): one server, TURNS turns, each the model reading a 10 KB file with read_file and then
 * answering, against a zero-latency scripted model; the floor agent does the same in the same run. Records resident
 * memory and time per turn every STEP turns and writes bench/results/soak-latest.json.
 *
 * Run: `npm run build && tsx bench/soak.ts [turns]`. With HERMES_SOAK_HEAP=1 our server also writes V8 heap
 * snapshots at turn 50 and at the end (SIGUSR2 → Heap.*.heapsnapshot in the bench's temp folder, kept and printed),
 * to see what holds the memory.
 */
import { mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
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

const TURNS = Number(process.argv[2] ?? 300);
const STEP = 25;
/** RSS is read this long after the last turn: the compaction (after 3 s idle) under way, and done. */
const IDLE_MS = [4_000, 12_000];

interface CurvePoint {
  readonly turn: number;
  readonly rssMb: number;
  /** Median milliseconds of the turns since the last point. */
  readonly turnMs: number;
  /** Set on the last point: taken this long after the last turn, no turn running. */
  readonly afterIdleMs?: number;
}

async function soak(command: AgentCommand, llm: ScriptedLlm, cwd: string, heapDir?: string): Promise<CurvePoint[]> {
  const agent = await startAgent(command);
  const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
  const curve: CurvePoint[] = [];
  let times: number[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall(`r${turn}`, "read_file", { path: "notes.md" })] },
      { kind: "text", chunks: [`read it (${turn})`] },
    );
    const t = performance.now();
    await agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: `read notes.md again (${turn})` }],
    });
    times.push(performance.now() - t);
    // The bench's own record of requests would grow with the session; the agents' memory is what is measured.
    llm.requests.length = 0;
    if (turn % STEP === 0 || turn === TURNS) {
      curve.push({ turn, rssMb: Number(agent.rssMb().toFixed(1)), turnMs: Number(median(times).toFixed(1)) });
      times = [];
    }
    if (heapDir && (turn === 50 || turn === TURNS)) {
      // The memory map beside the heap: what RSS holds outside V8's heap (wasm, malloc, code) shows only here. Taken
      // before the snapshot, which itself grows the heap; HERMES_SOAK_HEAP=maps keeps the maps without snapshots.
      writeFileSync(join(heapDir, `turn-${turn}.smaps`), readFileSync(`/proc/${agent.pid}/smaps`, "utf8"));
      if (process.env.HERMES_SOAK_HEAP !== "maps") await heapSnapshot(agent.pid, heapDir, turn);
    }
  }
  // Then the editor goes quiet: the server compacts its journal into the database file (after 3 s idle), the one
  // time sql.js holds the whole store; what that leaves resident is the last point.
  for (const idleMs of IDLE_MS) {
    await pause(idleMs - (curve.at(-1)?.afterIdleMs ?? 0));
    curve.push({ turn: TURNS, rssMb: Number(agent.rssMb().toFixed(1)), turnMs: 0, afterIdleMs: idleMs });
  }
  await agent.close();
  return curve;
}

/** Asks the server for a heap snapshot and waits for the file (written into the server's cwd, the heap folder). */
async function heapSnapshot(pid: number, dir: string, turn: number): Promise<void> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 600; i++) {
    await pause(100);
    const written = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (written) {
      await pause(500);
      renameSync(join(dir, written), join(dir, `turn-${turn}.heapsnapshot`));
      process.stdout.write(`heap snapshot: ${join(dir, `turn-${turn}.heapsnapshot`)}\n`);
      return;
    }
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "hermes-soak-"));
  const llm = await ScriptedLlm.start();
  try {
    const home = hermesHomeFor(join(root, "home"), llm.baseUrl);
    const workspace = join(root, "ws");
    const notes = readFileSync(SAMPLE_CONTEXT_FILE, "utf8");
    writeTree(workspace, { ".git/HEAD": "ref: main", "notes.md": notes.repeat(2).slice(0, 10_000) });
    const heapDir = process.env.HERMES_SOAK_HEAP ? join(root, "heap") : undefined;
    const hermes = hermesAgent(home);
    const ours = heapDir
      ? { ...hermes, cwd: heapDir, args: ["--heapsnapshot-signal=SIGUSR2", ...hermes.args] }
      : hermes;
    if (heapDir) writeTree(heapDir, { ".keep": "" });
    const results = {
      date: new Date().toISOString(),
      node: process.version,
      method: `${TURNS} turns, each a read_file of a 10,000-character file then a text answer; RSS and the median turn every ${STEP} turns, and RSS ${IDLE_MS.map((ms) => ms / 1000).join(" and ")} s after the last turn (afterIdleMs)`,
      hermes: await soak(ours, llm, workspace, heapDir),
      floor: await soak(floorAgent(llm.baseUrl), llm, workspace),
    };
    for (const [label, curve] of [
      ["hermes", results.hermes],
      ["floor", results.floor],
    ] as const)
      process.stdout.write(`${label}: ${curve.map((p) => `${p.turn}:${p.rssMb}MB/${p.turnMs}ms`).join(" ")}\n`);
    writeFileSync(join(__dirname, "results", "soak-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await llm.close();
  }
}

void main();

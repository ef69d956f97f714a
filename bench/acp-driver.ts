/**
 * Drives one ACP agent process over raw stdio for the benchmarks: no client SDK between the clock and the pipe, so
 * what is timed is the agent. Used for our server and for the floor agent (bench/floor-agent.mjs) alike.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { SERVER_BIN } from "../test/helpers/acp-harness.js";

/** How to start an agent: our bin with HERMES_HOME, or the floor with OPENAI_BASE_URL. */
export interface AgentCommand {
  readonly label: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The process's working directory (heap snapshots are written there); the bench's own by default. */
  readonly cwd?: string;
}

export const hermesAgent = (home: string): AgentCommand => ({
  label: "hermes",
  args: [SERVER_BIN],
  env: { PATH: process.env.PATH, HOME: home, HERMES_HOME: home },
});

/** A real context file (Astro's AGENTS.md, 9 KB, from the shared corpus beside the project) the benchmarks work on. */
export const SAMPLE_CONTEXT_FILE = join(
  dirname(SERVER_BIN),
  "..",
  "..",
  "shared",
  "corpus",
  "benign",
  "029__withastro__astro__AGENTS.md",
);

export const floorAgent = (llmBaseUrl: string): AgentCommand => ({
  label: "floor",
  // Beside the server bin's dist/: __dirname is not this folder when the driver is imported as ESM.
  args: [join(dirname(SERVER_BIN), "..", "bench", "floor-agent.mjs")],
  env: { PATH: process.env.PATH, OPENAI_BASE_URL: llmBaseUrl },
});

export interface DrivenAgent {
  readonly pid: number;
  /** Milliseconds from spawn to the `initialize` reply. */
  readonly initializeMs: number;
  request(method: string, params: unknown): Promise<Record<string, unknown>>;
  /** Resident memory now, in MB (Linux /proc). */
  rssMb(): number;
  /** Milliseconds of one request. */
  timed(method: string, params: unknown): Promise<number>;
  close(): Promise<void>;
}

/** Spawns the agent and answers once its `initialize` reply is in. */
export async function startAgent(command: AgentCommand): Promise<DrivenAgent> {
  const started = performance.now();
  const child = spawn(process.execPath, [...command.args], {
    env: command.env,
    cwd: command.cwd,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let buffer = "";
  const waiting = new Map<number, (message: { result?: Record<string, unknown>; error?: unknown }) => void>();
  child.stdout.on("data", (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffer.slice(0, nl)) as {
        id?: number;
        method?: string;
        result?: Record<string, unknown>;
        error?: unknown;
      };
      buffer = buffer.slice(nl + 1);
      // Notifications and the agent's own requests carry a method; only replies settle a request.
      if (typeof message.id === "number" && message.method === undefined) waiting.get(message.id)?.(message);
    }
  });
  let nextId = 0;
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (message) => {
        waiting.delete(id);
        if (message.error) reject(new Error(`${command.label} ${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result ?? {});
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const initializeMs = performance.now() - started;
  return {
    pid: child.pid!,
    initializeMs,
    request,
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024,
    async timed(method, params) {
      const t = performance.now();
      await request(method, params);
      return performance.now() - t;
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.on("exit", resolve));
    },
  };
}

export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * ACP document events under a flood: how long 10,000 `document/didFocus` notifications hold up a request queued
 * behind them, in process: the server's real input path (the document-event tap, then the SDK's dispatch) over
 * in-memory streams fed in 64 KiB chunks as a pipe delivers them, without process or pipe noise. The issue's
 * budget is 50 ms for the burst. `--sdk-only` bypasses the tap, for comparison. Run: `npx tsx bench/document-events.ts`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { PassThrough, Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { EditorDocuments } from "../acp-server/editor/editor-documents.js";
import { createAgentApp } from "../acp-server/rpc/agent-app.js";
import { connectAgent } from "../acp-server/rpc/serve-stdio.js";
import { createServerContext } from "../acp-server/rpc/server-context.js";
import type { AcpSession } from "../acp-server/session/acp-session.js";

const BURST = 10_000;
const ROUNDS = 15;
const root = "/work/project";
const files = ["src/a.ts", "src/deep/b.ts", "docs/guide/intro.md", "README.md"].map(
  (f) => pathToFileURL(join(root, f)).href,
);
const encoder = new TextEncoder();
const sdkOnly = process.argv.includes("--sdk-only");
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A connection to a fresh agent app whose one session has a real EditorDocuments; `send` writes raw lines. */
function connect() {
  const ctx = createServerContext({}, silent);
  const documents = new EditorDocuments([root]);
  ctx.sessions.set("s1", { documents } as unknown as AcpSession);
  const input = new PassThrough();
  const output = new PassThrough();
  const answered = new Map<number, () => void>();
  let buffered = "";
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffered.slice(0, newline)) as { id?: number };
      buffered = buffered.slice(newline + 1);
      if (typeof message.id === "number") answered.get(message.id)?.();
    }
  });
  if (sdkOnly)
    createAgentApp(ctx).connect(
      acp.ndJsonStream(
        Writable.toWeb(output) as WritableStream<Uint8Array>,
        Readable.toWeb(input) as ReadableStream<Uint8Array>,
      ),
    );
  else connectAgent(ctx, input, output);
  let nextId = 1;
  return {
    documents,
    /** Writes `lines` then a request, and resolves with the ms until the request is answered. */
    async timeRequestBehind(lines: string): Promise<number> {
      const id = nextId++;
      const request = `${JSON.stringify({ jsonrpc: "2.0", id, method: "session/set_mode", params: { sessionId: "none", modeId: "x" } })}\n`;
      const done = new Promise<void>((resolve) => answered.set(id, resolve));
      const started = performance.now();
      // Chunks of 64 KiB, as a pipe delivers them.
      const bytes = encoder.encode(lines + request);
      for (let at = 0; at < bytes.length; at += 65_536) input.write(bytes.subarray(at, at + 65_536));
      await done;
      return performance.now() - started;
    },
  };
}

function burst(): string {
  const lines: string[] = [];
  for (let i = 0; i < BURST; i++) {
    const params = {
      sessionId: "s1",
      uri: files[i % files.length],
      version: 1,
      position: { line: i % 500, character: 0 },
      visibleRange: { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } },
    };
    lines.push(`${JSON.stringify({ jsonrpc: "2.0", method: "document/didFocus", params })}\n`);
  }
  return lines.join("");
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const connection = connect();
  await connection.timeRequestBehind(""); // the handlers' first run
  const lines = burst();
  const alone: number[] = [];
  const behind: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    alone.push(await connection.timeRequestBehind(""));
    behind.push(await connection.timeRequestBehind(lines));
  }
  const news = connection.documents.take();
  if (news.paths.length !== files.length || !news.focus)
    throw new Error(`the burst was not recorded: ${JSON.stringify(news)}`);
  const delay = median(behind) - median(alone);
  process.stdout.write(
    `${sdkOnly ? "[SDK dispatch only] " : ""}request alone: median ${median(alone).toFixed(2)} ms; behind ${BURST} didFocus: median ${median(behind).toFixed(1)} ms (delay ${delay.toFixed(1)} ms, ${((delay * 1000) / BURST).toFixed(2)} µs per event)\n`,
  );
  const results = {
    date: new Date().toISOString(),
    burst: BURST,
    rounds: ROUNDS,
    aloneMedianMs: Number(median(alone).toFixed(2)),
    behindMedianMs: Number(median(behind).toFixed(1)),
    delayMs: Number(delay.toFixed(1)),
  };
  if (sdkOnly) return;
  writeFileSync(join(__dirname, "results", "document-events-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
}

void main();

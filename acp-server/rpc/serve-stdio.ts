import { Readable, Writable } from "node:stream";
import { format } from "node:util";
import * as acp from "@agentclientprotocol/sdk";
import { handleDocumentEvent } from "../handlers/document-events.js";
import { createAgentApp } from "./agent-app.js";
import { DocumentEventTap } from "./document-event-tap.js";
import type { Logger } from "./log.js";
import { createServerContext, type ServerContext } from "./server-context.js";

/**
 * Serves ACP on this process's stdin/stdout until the client closes stdin. stdout carries JSON-RPC only: console
 * output from any library is rerouted to the log on stderr, and no single failure may end the process.
 */
export async function serveStdio(log: Logger): Promise<void> {
  guardStdout(log);
  process.on("uncaughtException", (error) => log.error(`uncaught: ${error.stack ?? error.message}`));
  process.on("unhandledRejection", (reason) =>
    log.error(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`),
  );
  const ctx = createServerContext(process.env, log);
  const connection = connectAgent(ctx, process.stdin, process.stdout);
  log.debug("serving ACP on stdio");
  await connection.closed;
  for (const session of ctx.sessions.values()) session.close();
  // Fold the journals into the database file on the way out (a kill skips this; the journals cover it).
  if (!skipsExitCompaction(ctx.env)) await ctx.stores.compactAll();
  log.debug("client closed the connection");
}

/**
 * HERMES_SKIP_EXIT_COMPACTION=1: leave the journals unfolded at exit, as a kill would. For tests whose HERMES_HOME is
 * deleted right after the server stops: the fold starts sql.js in a worker, ~1 s of CPU per server that nothing would
 * ever read (about half of the ACP tests' CPU). Unset in production: the fold runs.
 */
function skipsExitCompaction(env: ServerContext["env"]): boolean {
  return env.HERMES_SKIP_EXIT_COMPACTION === "1";
}

/**
 * The most bytes one incoming JSON-RPC line may have: 64 MiB. The largest legitimate messages are prompts with
 * images (5 MB each at most, about 6.7 MB once base64-encoded: nine of them fit) and an editor's reply to
 * fs/read_text_file for a large file. A longer line is dropped with an error reply (document-event-tap.ts), so memory
 * stays bounded by about this much and the server keeps answering; the SDK's own limit is set above it, since a
 * line over the SDK's limit closes the connection for good.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The agent app on a pair of byte streams, with document events taken off the input before the SDK's dispatch. */
export function connectAgent(ctx: ServerContext, input: Readable, output: Writable): acp.AgentConnection {
  const cap = {
    maxLineBytes: MAX_LINE_BYTES,
    // One write per whole line: the SDK writes whole lines too, so the two never interleave within a line.
    reply: (message: object) => void output.write(`${JSON.stringify(message)}\n`),
    log: (text: string) => ctx.log.warn(text),
  };
  const tapped = input.pipe(new DocumentEventTap((method, params) => handleDocumentEvent(ctx, method, params), cap));
  const stream = acp.ndJsonStream(
    Writable.toWeb(output) as WritableStream<Uint8Array>,
    Readable.toWeb(tapped) as ReadableStream<Uint8Array>,
    {
      maxMessageBytes: MAX_LINE_BYTES + 1024,
    },
  );
  return createAgentApp(ctx).connect(stream);
}

function guardStdout(log: Logger): void {
  console.log = (...args: unknown[]) => log.info(format(...args));
  console.info = (...args: unknown[]) => log.info(format(...args));
  console.debug = (...args: unknown[]) => log.debug(format(...args));
}

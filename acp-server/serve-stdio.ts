import { Readable, Writable } from "node:stream";
import { format } from "node:util";
import * as acp from "@agentclientprotocol/sdk";
import { createAgentApp } from "./agent-app.js";
import { DocumentEventTap } from "./document-event-tap.js";
import { handleDocumentEvent } from "./handlers/document-events.js";
import type { Logger } from "./log.js";
import { createServerContext, type ServerContext } from "./server-context.js";

/**
 * Serves ACP on this process's stdin/stdout until the client closes stdin. stdout carries JSON-RPC only: console
 * output from any library is rerouted to the log on stderr, and no single failure may end the process.
 */
export async function serveStdio(log: Logger): Promise<void> {
  guardStdout(log);
  process.on("uncaughtException", (error) => log.error(`uncaught: ${error.stack ?? error.message}`));
  process.on("unhandledRejection", (reason) => log.error(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`));
  const ctx = createServerContext(process.env, log);
  const connection = connectAgent(ctx, process.stdin, process.stdout);
  log.debug("serving ACP on stdio");
  await connection.closed;
  for (const session of ctx.sessions.values()) session.close();
  // Fold the journals into the database file on the way out (a kill skips this; the journals cover it).
  await ctx.stores.compactAll();
  log.debug("client closed the connection");
}

/** The agent app on a pair of byte streams, with document events taken off the input before the SDK's dispatch. */
export function connectAgent(ctx: ServerContext, input: Readable, output: Writable): acp.AgentConnection {
  const tapped = input.pipe(new DocumentEventTap((method, params) => handleDocumentEvent(ctx, method, params)));
  const stream = acp.ndJsonStream(Writable.toWeb(output) as WritableStream<Uint8Array>, Readable.toWeb(tapped) as ReadableStream<Uint8Array>);
  return createAgentApp(ctx).connect(stream);
}

function guardStdout(log: Logger): void {
  console.log = (...args: unknown[]) => log.info(format(...args));
  console.info = (...args: unknown[]) => log.info(format(...args));
  console.debug = (...args: unknown[]) => log.debug(format(...args));
}

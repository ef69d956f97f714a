import { Readable, Writable } from "node:stream";
import { format } from "node:util";
import * as acp from "@agentclientprotocol/sdk";
import { createAgentApp } from "./agent-app.js";
import type { Logger } from "./log.js";
import { createServerContext } from "./server-context.js";

/**
 * Serves ACP on this process's stdin/stdout until the client closes stdin. stdout carries JSON-RPC only: console
 * output from any library is rerouted to the log on stderr, and no single failure may end the process.
 */
export async function serveStdio(log: Logger): Promise<void> {
  guardStdout(log);
  process.on("uncaughtException", (error) => log.error(`uncaught: ${error.stack ?? error.message}`));
  process.on("unhandledRejection", (reason) => log.error(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`));
  const ctx = createServerContext(process.env, log);
  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = createAgentApp(ctx).connect(stream);
  log.debug("serving ACP on stdio");
  await connection.closed;
  for (const session of ctx.sessions.values()) session.close();
  // Fold the journals into the database file on the way out (a kill skips this; the journals cover it).
  await ctx.stores.compactAll();
  log.debug("client closed the connection");
}

function guardStdout(log: Logger): void {
  console.log = (...args: unknown[]) => log.info(format(...args));
  console.info = (...args: unknown[]) => log.info(format(...args));
  console.debug = (...args: unknown[]) => log.debug(format(...args));
}

import { createServer } from "node:http";

let warmed: Promise<void> | undefined;

/**
 * One HTTP round trip over loopback, once per process, in idle time (after a session opens): Node's fetch (undici)
 * builds its dispatcher and compiles its WebAssembly HTTP parser on the first connection it makes, ~25-30 ms on the
 * 2-core machine this was measured on, which the first model request would otherwise pay inside the user's first
 * turn. Every provider SDK here goes through the global fetch, so one round trip warms them all. The listener takes
 * an ephemeral port on 127.0.0.1 for a few milliseconds and answers nothing but an empty 204; a failure changes
 * nothing but the first request's time.
 */
export function warmHttpClient(): Promise<void> {
  warmed ??= roundTrip().catch(() => undefined);
  return warmed;
}

async function roundTrip(): Promise<void> {
  const server = createServer((_request, response) => response.writeHead(204).end());
  server.unref();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  try {
    const address = server.address();
    if (address === null || typeof address === "string") return;
    const response = await fetch(`http://127.0.0.1:${address.port}/`, {
      headers: { connection: "close" },
      signal: AbortSignal.timeout(2_000),
    });
    await response.arrayBuffer();
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

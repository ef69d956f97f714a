/**
 * First-use costs that would otherwise land in the session/new a client sends the moment `initialize` answers, paid
 * before that answer instead (#23: session/new right after initialize, goal ≤ 10 ms). Measured in a CPU profile of
 * that session/new on the 2-core machine this was built on:
 *
 * - zod v4 compiles a schema on its first parse, and the ACP SDK parses every request's params with the method's
 *   schema: NewSessionRequest took 2.6–3.2 ms the first time and 0.05 ms after, PromptRequest 1.9 ms. The schemas are
 *   the SDK's own module, which its package does not export; it is imported by file, so the bundle holds one copy and
 *   these are the very schemas the SDK parses with.
 * - Node creates a second realm (a vm context) the first time a WritableStream writer is released, to build the
 *   error its `closed` promise rejects with; the SDK releases its writer after every message, so that happened just
 *   after the initialize reply was written, as session/new arrived (~0.5–1 ms).
 *
 * The file is bundled by path: an SDK that moved it fails the build, not a server. Any failure at run time costs
 * nothing but the time this was meant to save.
 */
export async function warmFirstRequests(): Promise<void> {
  try {
    new WritableStream().getWriter().releaseLock();
    const schemas = await import("../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js");
    schemas.zNewSessionRequest.safeParse({ cwd: "/", mcpServers: [] });
    schemas.zPromptRequest.safeParse({ sessionId: "warm-up", prompt: [{ type: "text", text: "" }] });
  } catch {
    // left for the first request to pay
  }
}

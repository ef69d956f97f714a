import * as acp from "@agentclientprotocol/sdk";
import {
  CHECKPOINT_PREVIEW_METHOD,
  CHECKPOINT_RESTORE_METHOD,
  parsePreviewParams,
  parseRestoreParams,
} from "../handlers/checkpoint-params.js";
import { onDocumentEvents } from "../handlers/document-events.js";
import { handleInitialize } from "../handlers/initialize.js";
import { warmFirstRequests } from "./first-request-warm-up.js";
import type { ServerContext } from "./server-context.js";
import { AGENT_NAME } from "./version.js";
import { collectYoungGarbage } from "./young-garbage.js";

// Session handlers pull in the whole engine (config, YAML, prompt builder, scanner): ~550 KB of code, ~40-80 ms to
// compile. Every client asks for a session right after `initialize`, so they load before the initialize reply: the
// session/new that follows answers in a few milliseconds, and spawn → session ready costs the same (Node 20 has no
// compile cache to make the load itself cheaper). The LLM SDKs, sql.js and the tools' heavy parts stay lazy.
const loadSessionHandlers = () => import("../handlers/session-handlers.js");

/** A prompt running or waiting in any session: the scanner's warm-up steps aside (idle time only). */
function anyPromptInFlight(ctx: ServerContext): boolean {
  for (const session of ctx.sessions.values()) if (session.prompts.busy || session.isRunning) return true;
  return false;
}

// A client that has just been answered often sends its next request at once (session/new after initialize, the first
// prompt after session/new, the next prompt of a queue): the warm-up waits for this much quiet after the last
// initialize, session/new or prompt, since one of its steps can take tens of milliseconds (~170 ms at most).
const QUIET_BEFORE_WARM_UP_MS = 500;

/** The ACP agent: method names wired to their handlers. One app per connection. */
export function createAgentApp(ctx: ServerContext): acp.AgentApp {
  let sessionHandlers: ReturnType<typeof loadSessionHandlers> | undefined;
  const handlers = () => (sessionHandlers ??= loadSessionHandlers());
  let lastRequest = 0;
  const busy = () => anyPromptInFlight(ctx) || performance.now() - lastRequest < QUIET_BEFORE_WARM_UP_MS;
  const heard = () => void (lastRequest = performance.now());
  const warmUpScanner = () =>
    handlers()
      // The front door is loaded by then (the session handlers import it): this `import()` costs a microtask.
      .then(() => import("../../agent/index.js"))
      // One regex per macrotask: a session/new arriving meanwhile is answered between two steps.
      .then((engine) => engine.warmUpScannerInSlices({ ...engine.SCANNER_WARM_UP_PACE, busy }))
      .catch((e: unknown) => ctx.log.error(`loading session handlers failed: ${String(e)}`));
  return onDocumentEvents(acp.agent({ name: AGENT_NAME }), ctx)
    .onRequest("initialize", async ({ params }) => {
      await handlers()
        // config.yaml read once now (its parse is cached by the file's stat): session/new then only checks the stat.
        // A broken file is reported by session/new, with its line. The provider's SDK and Node's fetch load now too:
        // every session's first prompt needs them, and a client may send that prompt the moment session/new answers
        // (#23: the first prompt sent back to back took 2.3x the floor's time with them loaded after session/new,
        // 1.3x loaded here; initialize grew from 0.9x the floor's to 1.1x, the floor loading its SDK at start too).
        .then((loaded) => loaded.primeConfig(ctx))
        .catch((e: unknown) => ctx.log.error(`loading session handlers failed: ${String(e)}`));
      await warmFirstRequests();
      heard();
      // HERMES_SCANNER_WARM_UP=off: a server that lives a second or two (the test suites start ~200) would spend
      // ~0.5 s of CPU compiling regexes it never runs; a scan then compiles what it needs.
      // Not before the quiet it waits for anyway: importing the engine's front door for it took ~0.5 ms of the
      // session/new that follows the reply.
      if (ctx.env.HERMES_SCANNER_WARM_UP !== "off")
        setTimeout(() => void warmUpScanner(), QUIET_BEFORE_WARM_UP_MS).unref();
      const reply = handleInitialize(ctx, params);
      // What loading left in the young generation is collected before the reply, not in session/new (young-garbage.ts).
      collectYoungGarbage();
      return reply;
    })
    .onRequest("authenticate", async ({ params }) => (await handlers()).handleAuthenticate(ctx, params))
    .onRequest("session/new", async ({ params, client }) => {
      heard();
      return (await handlers()).handleNewSession(ctx, params, client);
    })
    .onRequest("session/load", async ({ params, client }) => (await handlers()).handleLoadSession(ctx, params, client))
    .onRequest("session/list", async ({ params }) => (await handlers()).handleListSessions(ctx, params))
    .onRequest("session/resume", async ({ params, client }) =>
      (await handlers()).handleResumeSession(ctx, params, client),
    )
    .onRequest("session/close", async ({ params }) => (await handlers()).handleCloseSession(ctx, params))
    .onRequest("session/delete", async ({ params }) => (await handlers()).handleDeleteSession(ctx, params))
    .onRequest("session/set_mode", async ({ params }) => (await handlers()).handleSetMode(ctx, params))
    .onRequest("session/set_config_option", async ({ params }) => (await handlers()).handleSetConfigOption(ctx, params))
    .onRequest("session/prompt", async ({ params, client, signal }) => {
      heard();
      try {
        return await (await handlers()).handlePrompt(ctx, params, client, signal);
      } finally {
        heard();
      }
    })
    .onRequest(CHECKPOINT_PREVIEW_METHOD, parsePreviewParams, async ({ params }) =>
      (await handlers()).handleCheckpointPreview(ctx, params),
    )
    .onRequest(CHECKPOINT_RESTORE_METHOD, parseRestoreParams, async ({ params }) =>
      (await handlers()).handleCheckpointRestore(ctx, params),
    )
    .onNotification("session/cancel", async ({ params }) => (await handlers()).handleCancel(ctx, params));
}

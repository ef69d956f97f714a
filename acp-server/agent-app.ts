import * as acp from "@agentclientprotocol/sdk";
import { handleInitialize } from "./handlers/initialize.js";
import { handleNewSession } from "./handlers/session-new.js";
import { handleCancel, handlePrompt } from "./handlers/session-prompt.js";
import type { ServerContext } from "./server-context.js";
import { AGENT_NAME } from "./version.js";

/** The ACP agent: method names wired to their handlers. One app per connection. */
export function createAgentApp(ctx: ServerContext): acp.AgentApp {
  return acp
    .agent({ name: AGENT_NAME })
    .onRequest("initialize", ({ params }) => handleInitialize(ctx, params))
    .onRequest("session/new", ({ params }) => handleNewSession(ctx, params))
    .onRequest("session/prompt", ({ params, client, signal }) => handlePrompt(ctx, params, client, signal))
    .onNotification("session/cancel", ({ params }) => handleCancel(ctx, params));
}

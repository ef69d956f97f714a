import { type InitializeRequest, type InitializeResponse, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import type { AgentCapabilities } from "@agentclientprotocol/sdk/experimental/nes";
import type { ServerContext } from "../rpc/server-context.js";
import { AGENT_NAME, AGENT_TITLE, HERMES_ACP_VERSION } from "../rpc/version.js";
import { authMethods } from "./auth-methods.js";
import { DOCUMENT_EVENTS_CAPABILITY } from "./document-events.js";

/** Answers `initialize` with protocol 1 and only the capabilities this server really has. Does no other work. */
export function handleInitialize(ctx: ServerContext, params: InitializeRequest): InitializeResponse {
  ctx.clientCapabilities = params.clientCapabilities;
  ctx.log.debug(`initialize from ${params.clientInfo?.name ?? "unknown client"} (protocol ${params.protocolVersion})`);
  // Typed with the unstable extension: the stable type does not know `nes` (document events) yet.
  const agentCapabilities: AgentCapabilities = {
    loadSession: true,
    promptCapabilities: { image: true, audio: false, embeddedContext: true },
    sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
    // stdio MCP is always supported; these two transports as well.
    mcpCapabilities: { http: true, sse: true },
    nes: DOCUMENT_EVENTS_CAPABILITY,
    // The `_hermes/checkpoint/preview` and `/restore` extension methods (checkpoint-params.ts).
    _meta: { hermes: { checkpoints: true } },
  };
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities,
    agentInfo: { name: AGENT_NAME, title: AGENT_TITLE, version: HERMES_ACP_VERSION },
    authMethods: authMethods(params.clientCapabilities),
  };
}

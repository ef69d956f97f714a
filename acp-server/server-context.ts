import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { Env } from "../agent/config/hermes-home.js";
import type { AcpSession } from "./acp-session.js";
import type { Logger } from "./log.js";

/** What every handler of one connection shares: the environment, the log, the client's capabilities, the sessions. */
export interface ServerContext {
  readonly env: Env;
  readonly log: Logger;
  clientCapabilities: ClientCapabilities | undefined;
  readonly sessions: Map<string, AcpSession>;
}

export function createServerContext(env: Env, log: Logger): ServerContext {
  return { env, log, clientCapabilities: undefined, sessions: new Map() };
}

import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { Env } from "../../agent/index.js";
import type { AcpSession } from "../session/acp-session.js";
import { StoreAccess } from "../session/store-access.js";
import type { Logger } from "./log.js";

/** What every handler of one connection shares: the environment, the log, the client's capabilities, the sessions. */
export interface ServerContext {
  readonly env: Env;
  readonly log: Logger;
  clientCapabilities: ClientCapabilities | undefined;
  readonly sessions: Map<string, AcpSession>;
  readonly stores: StoreAccess;
}

export function createServerContext(env: Env, log: Logger): ServerContext {
  const sessions = new Map<string, AcpSession>();
  const busy = () => [...sessions.values()].some((s) => s.isRunning);
  return { env, log, clientCapabilities: undefined, sessions, stores: new StoreAccess(log, busy) };
}

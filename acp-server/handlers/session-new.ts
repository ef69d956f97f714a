import { randomUUID } from "node:crypto";
import { isAbsolute } from "node:path";
import { RequestError, type NewSessionRequest, type NewSessionResponse } from "@agentclientprotocol/sdk";
import { ConfigError, formatConfigProblem } from "../../agent/config/config-error.js";
import { prepareConversation } from "../../agent/session/open-conversation.js";
import { AcpSession } from "../acp-session.js";
import type { ServerContext } from "../server-context.js";

/**
 * Creates a session rooted at the client's cwd (never process.cwd()). A broken config.yaml is an error naming the
 * file and line; a missing model or key is not: the session opens and each prompt explains what to set.
 */
export function handleNewSession(ctx: ServerContext, params: NewSessionRequest): NewSessionResponse {
  if (!isAbsolute(params.cwd)) throw RequestError.invalidParams({ cwd: params.cwd }, "cwd must be an absolute path");
  let prepared;
  try {
    prepared = prepareConversation(params.cwd, ctx.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.log.error(`config error: ${error.message}`);
      throw new RequestError(-32603, `Hermes configuration error: ${formatConfigProblem(error.problem)}`, { ...error.problem });
    }
    throw error;
  }
  if (!prepared.ok) ctx.log.warn(prepared.problem);
  const sessionId = randomUUID();
  ctx.sessions.set(sessionId, new AcpSession(sessionId, params.cwd, ctx.env, prepared));
  ctx.log.debug(`session ${sessionId} opened in ${params.cwd}`);
  return { sessionId };
}

import { randomUUID } from "node:crypto";
import { isAbsolute } from "node:path";
import { RequestError, type AgentContext, type NewSessionRequest, type NewSessionResponse, type SessionUpdate } from "@agentclientprotocol/sdk";
import { ConfigError, formatConfigProblem } from "../../agent/config/config-error.js";
import { prepareConversation } from "../../agent/session/open-conversation.js";
import { AcpApprover } from "../acp-approver.js";
import { AcpSession } from "../acp-session.js";
import type { ServerContext } from "../server-context.js";
import { availableCommands } from "../slash-commands.js";

/**
 * Creates a session rooted at the client's cwd (never process.cwd()). A broken config.yaml is an error naming the
 * file and line; a missing model or key is not: the session opens and each prompt explains what to set.
 */
export function handleNewSession(ctx: ServerContext, params: NewSessionRequest, client: AgentContext): NewSessionResponse {
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
  for (const warning of prepared.systemPrompt.report.warnings) ctx.log.warn(warning);
  const sessionId = randomUUID();
  const session = new AcpSession(sessionId, params.cwd, ctx.env, prepared, new AcpApprover(sessionId, client, ctx.log));
  ctx.sessions.set(sessionId, session);
  ctx.log.debug(`session ${sessionId} opened in ${params.cwd}`);
  // Session updates must follow the session/new response (JetBrains drops them otherwise): a macrotask later.
  session.announced = new Promise((resolve) => setTimeout(() => void announceSession(ctx, session, client).finally(resolve), 0));
  return { sessionId };
}

async function announceSession(ctx: ServerContext, session: AcpSession, client: AgentContext): Promise<void> {
  // After the response: load the provider SDK while the user is still typing the first prompt.
  if (session.ready.ok) session.ready.conversation.warmUp();
  const send = (update: SessionUpdate) =>
    client.notify("session/update", { sessionId: session.id, update }).catch((e: unknown) => ctx.log.debug(`update not delivered: ${(e as Error).message}`));
  await send({ sessionUpdate: "available_commands_update", availableCommands: availableCommands() });
  // Clients without `session.notices` get the notices at the top of the first reply instead.
  if (!ctx.clientCapabilities?.session?.notices) return;
  for (const notice of session.takeNotices()) {
    await send({ sessionUpdate: "notice", severity: "warning", title: notice.title, description: notice.description });
  }
}

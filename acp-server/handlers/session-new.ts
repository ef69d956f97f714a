import { randomUUID } from "node:crypto";
import { isAbsolute } from "node:path";
import {
  type AgentContext,
  type McpServer,
  type NewSessionRequest,
  type NewSessionResponse,
  RequestError,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import {
  ConfigError,
  formatConfigProblem,
  type HermesConfig,
  loadHermesConfig,
  type PreparedConversation,
  prepareConversation,
  primeSessionOpening,
  type SessionStore,
  sandboxStatus,
  type Tool,
} from "../../agent/index.js";
import { AcpApprover } from "../editor/acp-approver.js";
import { AcpWorkspace } from "../editor/acp-workspace.js";
import { TerminalLinks } from "../editor/terminal-links.js";
import type { ServerContext } from "../rpc/server-context.js";
import { AcpSession, type AcpSessionOptions } from "../session/acp-session.js";
import { configOptionsOf, modesOf } from "../session/session-config.js";
import { SessionMcp } from "../session/session-mcp.js";
import { SessionPersistence } from "../session/session-persistence.js";
import { skillAvailableCommands } from "../turn/skill-commands.js";
import { availableCommands } from "../turn/slash-commands.js";
import { sessionEventUpdate } from "../updates/session-event-update.js";
import { requireUsableProvider } from "./authentication.js";

/** Loads the configuration for a session in `cwd`; a broken config.yaml becomes an ACP error naming file and line. */
export function prepareForClient(
  ctx: ServerContext,
  cwd: string,
  extraTools: readonly Tool[] = [],
  config?: HermesConfig,
): PreparedConversation {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
  return asAcpConfigError(ctx, () => {
    const prepared = prepareConversation(cwd, ctx.env, new Date(), extraTools, config);
    if (!prepared.ok) ctx.log.warn(prepared.problem);
    return prepared;
  });
}

/** Runs `read`; a broken config.yaml it meets becomes an ACP error naming the file and line. */
function asAcpConfigError<T>(ctx: ServerContext, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) {
      ctx.log.error(`config error: ${error.message}`);
      throw new RequestError(-32603, `Hermes configuration error: ${formatConfigProblem(error.problem)}`, {
        ...error.problem,
      });
    }
    throw error;
  }
}

/**
 * Reads config.yaml ahead of the first session/new (see agent-app.ts), and does the rest of what it does first and
 * keeps; a problem waits for session/new to be told.
 */
export async function primeConfig(ctx: ServerContext): Promise<void> {
  try {
    await primeSessionOpening(loadHermesConfig(ctx.env));
  } catch {
    // session/new reads it again and reports it with its line (an SDK that fails to load, the first prompt)
  }
}

/**
 * Creates a session rooted at the client's cwd (never process.cwd()) and records it in the session store. A broken
 * config.yaml is an error naming the file and line; a missing model or key is ACP's auth_required (the editor offers
 * the setup). Loaded and resumed sessions open either way: their history is worth seeing, and each prompt explains.
 */
export async function handleNewSession(
  ctx: ServerContext,
  params: NewSessionRequest,
  client: AgentContext,
): Promise<NewSessionResponse> {
  if (!isAbsolute(params.cwd)) throw RequestError.invalidParams({ cwd: params.cwd }, "cwd must be an absolute path");
  const config = asAcpConfigError(ctx, () => loadHermesConfig(ctx.env));
  // No usable model: ACP's auth_required, so the editor offers the setup (authentication.ts).
  requireUsableProvider(ctx, config);
  const mcp = await startMcpServers(ctx, params.cwd, params.mcpServers);
  const prepared = prepareForClient(ctx, params.cwd, mcp.tools, config);
  const sessionId = randomUUID();
  const now = Date.now() / 1000;
  // The store opens a macrotask later (a journal file; its database loads only when something reads it), so that
  // session/new answers at once; the first save waits for it.
  const store = new Promise<void>((resolve) => setTimeout(resolve, 0))
    .then(() => ctx.stores.open(prepared.config.home))
    .then((opened) => {
      opened.createSession({
        id: sessionId,
        cwd: params.cwd,
        model: prepared.ok ? prepared.conversation.runtime.model : undefined,
        provider: prepared.ok ? prepared.conversation.runtime.providerId : undefined,
        createdAt: now,
        updatedAt: now,
      });
      return opened;
    });
  store.catch((error: unknown) => ctx.log.error(`session store unavailable: ${(error as Error).message}`));
  const persistence = new SessionPersistence(store, sessionId, ctx.log, { savedLength: 0, nextSeq: 0, titled: false });
  const session = new AcpSession(sessionId, params.cwd, ctx.env, prepared, {
    ...sessionOptions(ctx, sessionId, params.cwd, client, persistence, store),
    mcp,
    notices: mcp.notices,
  });
  ctx.sessions.set(sessionId, session);
  ctx.log.debug(`session ${sessionId} opened in ${params.cwd}`);
  // Session updates must follow the session/new response (JetBrains drops them otherwise): a macrotask later.
  session.announced = new Promise((resolve) =>
    setTimeout(() => void announceSession(ctx, session, client).finally(resolve), 0),
  );
  return { sessionId, modes: modesOf(session), configOptions: configOptionsOf(session) };
}

/**
 * Starts the session's MCP servers (config.yaml's `mcp_servers` and the client's list; stdio, http, sse), at most
 * 15 s each unless config.yaml says otherwise. A server that fails is told to the user; the session opens without its
 * tools (session-mcp.ts).
 */
export function startMcpServers(
  ctx: ServerContext,
  cwd: string,
  servers: readonly McpServer[] | null | undefined,
): Promise<SessionMcp> {
  return SessionMcp.open(ctx.env, ctx.log, cwd, servers ?? []);
}

export function sessionOptions(
  ctx: ServerContext,
  sessionId: string,
  cwd: string,
  client: AgentContext,
  persistence: SessionPersistence,
  store: Promise<SessionStore>,
): AcpSessionOptions {
  const capabilities = ctx.clientCapabilities;
  const fs = capabilities?.fs;
  const terminals = new TerminalLinks();
  const approver = new AcpApprover(sessionId, client, ctx.log);
  return {
    approver,
    restoreApprover: approver,
    log: (message) => ctx.log.warn(message),
    persistence,
    store,
    onTurnEnd: () => ctx.stores.scheduleCompaction(),
    // Through the editor when it offers file access (unsaved buffers, edits land in the editor) or terminals (the
    // user sees commands run); else the disk and local processes.
    ...(capabilities && (fs?.readTextFile || fs?.writeTextFile || capabilities.terminal)
      ? { workspace: new AcpWorkspace(cwd, sessionId, client, capabilities, ctx.log, terminals), terminals }
      : {}),
  };
}

export async function announceSession(ctx: ServerContext, session: AcpSession, client: AgentContext): Promise<void> {
  // After the response: the system prompt is built here (its context files scanned), then the provider SDK loads
  // while the user is still typing the first prompt.
  for (const warning of session.ready.systemPrompt.report.warnings) ctx.log.warn(warning);
  session.tellContextNotices();
  if (session.ready.ok) session.ready.conversation.warmUp();
  const send = (update: SessionUpdate) =>
    client
      .notify("session/update", { sessionId: session.id, update })
      .catch((e: unknown) => ctx.log.debug(`update not delivered: ${(e as Error).message}`));
  const builtins = availableCommands();
  await send({
    sessionUpdate: "available_commands_update",
    availableCommands: [...builtins, ...skillAvailableCommands(session, builtins)],
  });
  // Commands that will run unconfined are said once per session, before the first reply: never in silence. The probe
  // (~10 ms, once per process) runs after the session/new response, so it never delays it.
  const sandbox = await sandboxStatus(session.ready.toolSettings.sandbox);
  if (!sandbox.contained)
    session.addNotice({ title: "Commands are not sandboxed", description: `Sandbox ${sandbox.summary}.` });
  // A corrupt session database found while opening the store is told with the next notices (never waited for).
  void session.store?.then(
    (store) => {
      for (const description of store.problems.splice(0))
        session.addNotice({ title: "Session database recovered", description });
    },
    () => undefined,
  );
  // Clients without `session.notices` get the notices at the top of the first reply instead.
  if (!ctx.clientCapabilities?.session?.notices) return;
  // Hears what the session holds now (its startup notices), in order; what comes later waits for the first prompt.
  let sent = Promise.resolve();
  const stopListening = session.events.listen((event) => {
    sent = sent.then(() => send(sessionEventUpdate(event, session, true)));
  });
  stopListening();
  await sent;
}

import {
  type AgentContext,
  type CloseSessionRequest,
  type DeleteSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  RequestError,
  type ResumeSessionRequest,
  type ResumeSessionResponse,
} from "@agentclientprotocol/sdk";
import { fromStoredMessages, isReasoningEffort, isSessionMode, resolveHermesHome } from "../../agent/index.js";
import type { ServerContext } from "../rpc/server-context.js";
import { AcpSession } from "../session/acp-session.js";
import { replayHistory } from "../session/history-replay.js";
import { configOptionsOf, modesOf } from "../session/session-config.js";
import { type PersistedSessionState, SessionPersistence } from "../session/session-persistence.js";
import { announceSession, prepareForClient, sessionOptions, startMcpServers } from "./session-new.js";

const PAGE_SIZE = 50;

/**
 * `session/load`: a session from the store (this process's or one saved before a restart, or by another window)
 * comes back with its history, replayed to the client as session/update notifications before the response, and
 * with the subdirectory hints it had already injected (upstream gaps 5: ACP sessions survive restarts).
 */
export function handleLoadSession(
  ctx: ServerContext,
  params: LoadSessionRequest,
  client: AgentContext,
): Promise<LoadSessionResponse> {
  return reopenSession(ctx, params, client, true);
}

/** `session/resume`: the same as load, without replaying the history the client already shows. */
export function handleResumeSession(
  ctx: ServerContext,
  params: ResumeSessionRequest,
  client: AgentContext,
): Promise<ResumeSessionResponse> {
  return reopenSession(ctx, { ...params, mcpServers: params.mcpServers ?? [] }, client, false);
}

async function reopenSession(
  ctx: ServerContext,
  params: LoadSessionRequest,
  client: AgentContext,
  replay: boolean,
): Promise<LoadSessionResponse> {
  const mcp = await startMcpServers(ctx, params.cwd, params.mcpServers);
  const prepared = prepareForClient(ctx, params.cwd, mcp.tools);
  const store = await ctx.stores.open(prepared.config.home);
  await ctx.sessions.get(params.sessionId)?.idle();
  await store.refresh();
  const saved = store.getSession(params.sessionId);
  if (!saved) throw RequestError.sessionNotFound(params.sessionId);
  const rows = store.loadMessages(params.sessionId);
  const state = (saved.state ?? {}) as PersistedSessionState;
  ctx.sessions.get(params.sessionId)?.close();
  const nextSeq = rows.reduce((max, r) => Math.max(max, r.seq + 1), 0);
  const persistence = new SessionPersistence(Promise.resolve(store), saved.id, ctx.log, {
    savedLength: rows.length,
    nextSeq,
    titled: saved.title !== null,
  });
  const history = fromStoredMessages(rows);
  const mode = isSessionMode(state.mode) ? state.mode : "default";
  const reasoningEffort = isReasoningEffort(state.reasoningEffort) ? state.reasoningEffort : undefined;
  const session = new AcpSession(saved.id, params.cwd, ctx.env, prepared, {
    ...sessionOptions(ctx, saved.id, params.cwd, client, persistence, Promise.resolve(store)),
    history,
    hintMemory: state.hints,
    mode,
    reasoningEffort,
    mcp,
    notices: mcp.notices,
  });
  ctx.sessions.set(saved.id, session);
  if (replay)
    await replayHistory(history, params.cwd, (update) =>
      client.notify("session/update", { sessionId: saved.id, update }),
    );
  session.announced = new Promise((resolve) =>
    setTimeout(() => void announceSession(ctx, session, client).finally(resolve), 0),
  );
  return { modes: modesOf(session), configOptions: configOptionsOf(session) };
}

/** `session/close`: ends the session's turn and processes; it stays saved and can be loaded again. */
export function handleCloseSession(ctx: ServerContext, params: CloseSessionRequest): Record<string, never> {
  ctx.sessions.get(params.sessionId)?.close();
  ctx.sessions.delete(params.sessionId);
  return {};
}

/** `session/delete`: closes it and removes it from the store for good. */
export async function handleDeleteSession(
  ctx: ServerContext,
  params: DeleteSessionRequest,
): Promise<Record<string, never>> {
  handleCloseSession(ctx, params);
  const store = await ctx.stores.open(resolveHermesHome(ctx.env));
  await store.refresh();
  if (!store.getSession(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
  store.deleteSession(params.sessionId);
  await store.flushed();
  return {};
}

/** `session/list`: saved sessions with history, newest first, 50 a page; the cursor is the last one's update time. */
export async function handleListSessions(
  ctx: ServerContext,
  params: ListSessionsRequest,
): Promise<ListSessionsResponse> {
  const store = await ctx.stores.open(resolveHermesHome(ctx.env));
  await store.refresh();
  const before = params.cursor ? Number(params.cursor) : undefined;
  const page = store.listSessions({
    cwd: params.cwd ?? undefined,
    limit: PAGE_SIZE + 1,
    before: Number.isFinite(before) ? before : undefined,
  });
  const shown = page.slice(0, PAGE_SIZE);
  return {
    sessions: shown.map((s) => ({
      sessionId: s.id,
      cwd: s.cwd,
      title: s.title,
      updatedAt: new Date(s.updatedAt * 1000).toISOString(),
    })),
    ...(page.length > PAGE_SIZE ? { nextCursor: String(shown.at(-1)!.updatedAt) } : {}),
  };
}

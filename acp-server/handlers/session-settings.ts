import {
  RequestError,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
  type SetSessionModeRequest,
} from "@agentclientprotocol/sdk";
import { isSessionMode } from "../../agent/index.js";
import type { ServerContext } from "../rpc/server-context.js";
import type { AcpSession } from "../session/acp-session.js";
import { configOptionsOf } from "../session/session-config.js";
import { THINKING_OPTION_ID } from "../session/thinking-option.js";

function sessionOf(ctx: ServerContext, sessionId: string): AcpSession {
  const session = ctx.sessions.get(sessionId);
  if (!session) throw RequestError.sessionNotFound(sessionId);
  return session;
}

/** Legacy `session/set_mode` (kept for older clients; the same as setting the `mode` config option). */
export async function handleSetMode(ctx: ServerContext, params: SetSessionModeRequest): Promise<Record<string, never>> {
  const session = sessionOf(ctx, params.sessionId);
  if (!isSessionMode(params.modeId))
    throw RequestError.invalidParams({ modeId: params.modeId }, `unknown mode '${params.modeId}'`);
  await session.setMode(params.modeId);
  return {};
}

/** `session/set_config_option` for `mode`, `model` and `reasoning_effort`; answers with the full, current list. */
export async function handleSetConfigOption(
  ctx: ServerContext,
  params: SetSessionConfigOptionRequest,
): Promise<SetSessionConfigOptionResponse> {
  const session = sessionOf(ctx, params.sessionId);
  const value = (params as { value?: unknown }).value;
  if (params.configId === "mode") {
    if (!isSessionMode(value)) throw RequestError.invalidParams({ value }, `unknown mode '${String(value)}'`);
    await session.setMode(value);
  } else if (params.configId === "model") {
    if (typeof value !== "string" || !session.switchModel(value)) {
      throw RequestError.invalidParams(
        { value },
        `'${String(value)}' is not one of the configured models (model and fallback_providers in config.yaml)`,
      );
    }
  } else if (params.configId === THINKING_OPTION_ID) {
    const problem = await session.setReasoningEffort(value);
    if (problem) throw RequestError.invalidParams({ value }, problem);
  } else {
    throw RequestError.invalidParams({ configId: params.configId }, `unknown config option '${params.configId}'`);
  }
  return { configOptions: configOptionsOf(session) };
}

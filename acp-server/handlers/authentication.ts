import { type AuthenticateRequest, RequestError } from "@agentclientprotocol/sdk";
import { ConfigError, type HermesConfig, loadHermesConfig, resolveRuntimeProvider } from "../../agent/index.js";
import type { ServerContext } from "../rpc/server-context.js";
import { BIN_NAME } from "../rpc/version.js";
import { CONFIG_METHOD_ID } from "./auth-methods.js";

/**
 * Throws ACP's auth_required when the configuration names no usable model (no model, no key, an unknown provider,
 * a local provider without base_url): editors then offer the setup instead of opening a session that can only
 * answer "not ready". A broken config.yaml is left to the session's own error, which names the file and line.
 */
export function requireUsableProvider(ctx: ServerContext, config?: HermesConfig): void {
  const problem = providerProblem(ctx, config);
  if (problem === undefined) return;
  ctx.log.warn(problem);
  throw RequestError.authRequired(
    { problem, setup: `${BIN_NAME} --setup` },
    `${problem} Run "${BIN_NAME} --setup" in a terminal to choose a provider and model.`,
  );
}

/** `authenticate`: succeeds once HERMES_HOME names a usable model; the terminal method is never passed here. */
export function handleAuthenticate(ctx: ServerContext, params: AuthenticateRequest): Record<string, never> {
  if (params.methodId !== CONFIG_METHOD_ID)
    throw RequestError.invalidParams({ methodId: params.methodId }, `unknown auth method '${params.methodId}'`);
  requireUsableProvider(ctx);
  return {};
}

function providerProblem(ctx: ServerContext, loaded: HermesConfig | undefined): string | undefined {
  try {
    const config = loaded ?? loadHermesConfig(ctx.env);
    const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
    return resolution.ok ? undefined : resolution.problem;
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

import { ensureHermesHome, type Env } from "../config/hermes-home.js";
import { loadHermesConfig, type HermesConfig } from "../config/load-config.js";
import { resolveRuntimeProvider } from "../config/runtime-provider.js";
import { Conversation } from "../loop/conversation.js";
import { DEFAULT_AGENT_IDENTITY } from "../prompt/identity.js";
import { createModelClient } from "../providers/create-model-client.js";

/** A conversation ready to run, or the reason it cannot run yet (no model, no key) in words the user can act on. */
export type PreparedConversation =
  | { readonly ok: true; readonly config: HermesConfig; readonly conversation: Conversation }
  | { readonly ok: false; readonly config: HermesConfig; readonly problem: string };

/**
 * Loads the configuration afresh (so fixing config.yaml or .env needs no restart), creates HERMES_HOME on first use
 * and opens a conversation for a session rooted at `cwd`. Throws ConfigError when config.yaml is broken.
 */
export function prepareConversation(cwd: string, processEnv: Env): PreparedConversation {
  const config = loadHermesConfig(processEnv);
  ensureHermesHome(config.home);
  const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
  if (!resolution.ok) return { ok: false, config, problem: resolution.problem };
  void cwd; // the project-context layer of the system prompt is rooted here (context-files issue)
  const conversation = new Conversation({
    runtime: resolution.runtime,
    systemPrompt: DEFAULT_AGENT_IDENTITY,
    openModelClient: createModelClient,
  });
  return { ok: true, config, conversation };
}

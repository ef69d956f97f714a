import { ensureHermesHome, type Env } from "../config/hermes-home.js";
import { loadHermesConfig, type HermesConfig } from "../config/load-config.js";
import { readPromptSettings } from "../config/prompt-settings.js";
import { resolveRuntimeProvider, type RuntimeResolution } from "../config/runtime-provider.js";
import { Conversation } from "../loop/conversation.js";
import { buildSystemPrompt, type SystemPrompt } from "../prompt/system-prompt.js";
import { seedSoul } from "../prompt/soul.js";
import { createModelClient } from "../providers/create-model-client.js";
import { contextLengthOf } from "../providers/model-metadata.js";

/** A conversation ready to run, or the reason it cannot run yet (no model, no key) in words the user can act on. */
export type PreparedConversation =
  | { readonly ok: true; readonly config: HermesConfig; readonly systemPrompt: SystemPrompt; readonly conversation: Conversation }
  | { readonly ok: false; readonly config: HermesConfig; readonly systemPrompt: SystemPrompt; readonly problem: string };

/** The tools a session offers (none until the loop-and-tools work lands); they decide which guidance is included. */
const SESSION_TOOLS: ReadonlySet<string> = new Set();

/**
 * Loads the configuration afresh (so fixing config.yaml or .env needs no restart), creates HERMES_HOME and its
 * SOUL.md on first use, builds the session's system prompt once, and opens a conversation rooted at `cwd`.
 * Throws ConfigError when config.yaml is broken.
 */
export function prepareConversation(cwd: string, processEnv: Env, now = new Date()): PreparedConversation {
  const config = loadHermesConfig(processEnv);
  ensureHermesHome(config.home);
  seedSoul(config.home);
  const { resolution, systemPrompt } = buildSessionPrompt(config, cwd, now);
  if (!resolution.ok) return { ok: false, config, systemPrompt, problem: resolution.problem };
  const conversation = new Conversation({ runtime: resolution.runtime, systemPrompt: systemPrompt.text, openModelClient: createModelClient });
  return { ok: true, config, systemPrompt, conversation };
}

/** The system prompt a session in `cwd` would get, and the provider resolution it depends on. Reads, never writes. */
export function buildSessionPrompt(config: HermesConfig, cwd: string, now: Date): { resolution: RuntimeResolution; systemPrompt: SystemPrompt } {
  const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
  const model = resolution.ok ? resolution.runtime.model : (config.model.model ?? "(not configured)");
  const systemPrompt = buildSystemPrompt({
    home: config.home,
    cwd,
    model,
    providerId: resolution.ok ? resolution.runtime.providerId : (config.model.provider ?? "(not configured)"),
    contextLength: contextLengthOf(model, config.model.contextLength),
    settings: readPromptSettings(config.yaml),
    toolNames: SESSION_TOOLS,
    now,
  });
  return { resolution, systemPrompt };
}

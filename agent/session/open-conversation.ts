import { readCompressionSettings } from "../compress/compression-settings.js";
import { readApprovalJudgeSettings } from "../config/approval-judge-settings.js";
import { type CheckpointSettings, readCheckpointSettings } from "../config/checkpoint-settings.js";
import { readDelegationSettings } from "../config/delegation-settings.js";
import { readFallbackSettings, resolveFallbackProviders } from "../config/fallback-settings.js";
import { type Env, ensureHermesHome } from "../config/hermes-home.js";
import { type HermesConfig, loadHermesConfig } from "../config/load-config.js";
import { contextLengthOf } from "../config/model-metadata.js";
import { readPromptSettings } from "../config/prompt-settings.js";
import { readReasoningEffort } from "../config/reasoning-settings.js";
import { type RuntimeProvider, type RuntimeResolution, resolveRuntimeProvider } from "../config/runtime-provider.js";
import { readToolSettings, type ToolSettings } from "../config/tool-settings.js";
import { availableToolsets } from "../delegation/child-toolsets.js";
import { createDelegateTool } from "../delegation/delegate-tool.js";
import { createSessionDelegationHost } from "../delegation/session-delegation-host.js";
import { Conversation } from "../loop/conversation.js";
import { systemPromptAfterCompression } from "../prompt/prompt-after-compression.js";
import { seedSoul } from "../prompt/soul.js";
import { buildSystemPrompt, type SystemPrompt } from "../prompt/system-prompt.js";
import {
  createModelClient,
  createModelClientWithFallbacks,
  preloadModelClient,
} from "../providers/create-model-client.js";
import type { TokenUsage } from "../providers/model-client.js";
import { keepSandboxProbeIn } from "../sandbox/sandbox-probe-cache.js";
import { keepScanVerdictsIn } from "../security/scan-verdicts.js";
import { withoutUnavailableBrowser } from "../tools/browser/browser-availability.js";
import type { DelegationHost } from "../tools/delegation-host.js";
import { sessionTools } from "../tools/registry.js";
import type { CommandJudge } from "../tools/safety/command-judge.js";
import { createLlmCommandJudge } from "../tools/safety/llm-command-judge.js";
import type { Tool } from "../tools/tool.js";
import { toolsetsOf } from "../tools/toolsets.js";
import { createVisionModels, type VisionModels } from "../tools/vision/vision-models.js";

/** A conversation ready to run, or the reason it cannot run yet (no model, no key) in words the user can act on. */
export type PreparedConversation =
  | {
      readonly ok: true;
      readonly config: HermesConfig;
      readonly systemPrompt: SystemPrompt;
      readonly toolSettings: ToolSettings;
      readonly checkpoints: CheckpointSettings;
      readonly conversation: Conversation;
      /** The configured models a user may switch to: the primary, then each usable fallback. */
      readonly modelChoices: readonly RuntimeProvider[];
      /** What delegate_task starts subagents with; `recordUsage` counts their model calls in the session's usage. */
      readonly delegationHost: (recordUsage?: (usage: TokenUsage) => void) => DelegationHost;
      /** Reviews flagged commands before the user is asked; only with `approvals.mode: smart` (our default is manual). */
      readonly commandJudge?: CommandJudge;
      /** Who looks at images for vision_analyze: auxiliary.vision, else the session's model (read on first use). */
      readonly vision: VisionModels;
    }
  | {
      readonly ok: false;
      readonly config: HermesConfig;
      readonly systemPrompt: SystemPrompt;
      readonly toolSettings: ToolSettings;
      readonly checkpoints: CheckpointSettings;
      readonly problem: string;
    };

/**
 * Loads the configuration afresh (so fixing config.yaml or .env needs no restart), creates HERMES_HOME and its
 * SOUL.md on first use, builds the session's system prompt once, and opens a conversation rooted at `cwd`.
 * Throws ConfigError when config.yaml is broken.
 */
export function prepareConversation(
  cwd: string,
  processEnv: Env,
  now = new Date(),
  extraTools: readonly Tool[] = [],
  /** Read just before by the caller (session/new checks the model first): read once per session/new. */
  loaded?: HermesConfig,
): PreparedConversation {
  const config = loaded ?? loadHermesConfig(processEnv);
  ensureHermesHome(config.home);
  seedSoul(config.home);
  const toolSettings = readToolSettings(config.yaml, config.env);
  const reasoningEffort = readReasoningEffort(config.yaml);
  const checkpoints = readCheckpointSettings(config.yaml);
  const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
  // Built when first asked for (the first model request, /context, the skill commands sent after the session/new
  // reply): it scans every context file, and session/new answers without waiting for that.
  let builtPrompt: SystemPrompt | undefined;
  const promptOf = (): SystemPrompt =>
    (builtPrompt ??= buildSessionPrompt(config, cwd, now, resolution.ok ? resolution.runtime : undefined).systemPrompt);
  if (!resolution.ok)
    return {
      ok: false,
      config,
      get systemPrompt() {
        return promptOf();
      },
      toolSettings,
      checkpoints,
      problem: resolution.problem,
    };
  const fallbacks = resolveFallbackProviders(
    readFallbackSettings(config.yaml),
    config.env,
    config.configPath,
    resolution.runtime,
  );
  const retry = config.model.maxRetries === undefined ? {} : { maxRetries: config.model.maxRetries };
  const delegation = readDelegationSettings(config.yaml);
  const builtIn = sessionBuiltIns(config);
  const delegateTool = createDelegateTool({
    maxConcurrentChildren: delegation.maxConcurrentChildren,
    toolsets: availableToolsets([...builtIn, ...extraTools]),
  });
  const tools = [...builtIn, delegateTool, ...extraTools];
  const compression = readCompressionSettings(config.yaml);
  const conversation: Conversation = new Conversation({
    runtime: resolution.runtime,
    systemPrompt: () => promptOf().text,
    openModelClient: async (runtime) => createModelClientWithFallbacks(runtime, fallbacks.runtimes, retry),
    tools,
    maxIterations: toolSettings.maxTurns,
    compression,
    reasoningEffort,
    // The session's start date is kept: "Conversation started" does not move because the history was compressed.
    refreshSystemPrompt: (current: string): string =>
      systemPromptAfterCompression(
        current,
        config.home,
        readPromptSettings(config.yaml),
        () => buildSessionPrompt(config, cwd, now, conversation.runtime).systemPrompt.text,
      ),
  });
  const delegationHost = (recordUsage?: (usage: TokenUsage) => void) =>
    createSessionDelegationHost({
      config,
      cwd,
      settings: delegation,
      // The conversation's tools as they are now (/reload-mcp replaces its MCP tools).
      get parentTools() {
        return conversation.tools;
      },
      parentRuntime: () => conversation.runtime,
      parentReasoningEffort: () => conversation.reasoningEffort,
      fallbacks: fallbacks.runtimes,
      retry,
      compression,
      recordUsage,
    });
  // Read only in smart mode, so a mistake under `auxiliary.approval` cannot stop sessions that never use the judge.
  const commandJudge =
    toolSettings.approvalsMode === "smart"
      ? createLlmCommandJudge({
          settings: readApprovalJudgeSettings(config.yaml),
          sessionRuntime: () => conversation.runtime,
          env: config.env,
          configPath: config.configPath,
        })
      : undefined;
  const vision = createVisionModels({
    config,
    sessionRuntime: () => conversation.runtime,
    openClient: createModelClient,
  });
  return {
    ok: true,
    config,
    get systemPrompt() {
      return promptOf();
    },
    toolSettings,
    checkpoints,
    conversation,
    modelChoices: [resolution.runtime, ...fallbacks.runtimes],
    delegationHost,
    vision,
    ...(commandJudge ? { commandJudge } : {}),
  };
}

/** The system prompt a session in `cwd` would get, and the provider resolution it depends on. Reads, never writes. */
export function buildSessionPrompt(
  config: HermesConfig,
  cwd: string,
  now: Date,
  runtime?: RuntimeProvider,
): { resolution: RuntimeResolution; systemPrompt: SystemPrompt } {
  const resolution: RuntimeResolution = runtime
    ? { ok: true, runtime }
    : resolveRuntimeProvider(config.model, config.env, config.configPath);
  const model = resolution.ok ? resolution.runtime.model : (config.model.model ?? "(not configured)");
  keepScanVerdictsIn(config.home);
  keepSandboxProbeIn(config.home);
  const toolNames = new Set(sessionBuiltIns(config).map((tool) => tool.name));
  const systemPrompt = buildSystemPrompt({
    home: config.home,
    cwd,
    model,
    providerId: resolution.ok ? resolution.runtime.providerId : (config.model.provider ?? "(not configured)"),
    contextLength: contextLengthOf(model, config.model.contextLength),
    settings: readPromptSettings(config.yaml),
    // What the session offers (the skills index hides skills whose tools it lacks, as upstream does).
    toolNames,
    toolsets: toolsetsOf(toolNames),
    now,
  });
  return { resolution, systemPrompt };
}

/**
 * Does ahead what every session/new does first and keeps (the tool registry, the search for a Chromium), for a server
 * that has just started: the first session/new then costs what later ones do.
 */
export async function primeSessionOpening(config: HermesConfig): Promise<void> {
  sessionBuiltIns(config);
  const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
  if (resolution.ok) await preloadModelClient(resolution.runtime);
}

/** The built-in tools a session offers: the browser tools only when a Chromium is there to drive (browser-availability.ts). */
function sessionBuiltIns(config: HermesConfig) {
  return withoutUnavailableBrowser(sessionTools(), config);
}

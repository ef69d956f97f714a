import type { CompressionSettings } from "../compress/compression-settings.js";
import { resolveChildRuntime } from "../config/child-runtime.js";
import type { DelegationSettings } from "../config/delegation-settings.js";
import type { HermesConfig } from "../config/load-config.js";
import type { ReasoningEffort } from "../config/model-reasoning.js";
import { readPromptSettings } from "../config/prompt-settings.js";
import type { RuntimeProvider } from "../config/runtime-provider.js";
import { Conversation } from "../loop/conversation.js";
import { buildSystemPrompt } from "../prompt/system-prompt.js";
import { createModelClientWithFallbacks } from "../providers/create-model-client.js";
import type { TokenUsage } from "../providers/model-client.js";
import type { RetryOptions } from "../providers/retrying-client.js";
import type { ChildOpening, ChildSpec, DelegationHost } from "../tools/delegation-host.js";
import type { Tool } from "../tools/tool.js";
import { toolsetsOf } from "../tools/toolsets.js";

export interface SessionDelegationOptions {
  readonly config: HermesConfig;
  readonly cwd: string;
  readonly settings: DelegationSettings;
  readonly parentTools: readonly Tool[];
  /** The parent's model as it is now: `/model` may have switched it since the session opened. */
  readonly parentRuntime: () => RuntimeProvider;
  /** The parent's Thinking level as it is now, which subagents inherit (upstream passes `reasoning_config` on). */
  readonly parentReasoningEffort?: () => ReasoningEffort | undefined;
  /** The parent's fallback chain, which subagents inherit (upstream passes `_fallback_chain` on). */
  readonly fallbacks: readonly RuntimeProvider[];
  readonly retry: RetryOptions;
  readonly compression: CompressionSettings;
  readonly recordUsage?: (usage: TokenUsage) => void;
}

/**
 * The delegation host of one session. Each subagent gets upstream's child set-up: the base prompt without memory
 * or project context files (`skip_memory`, `skip_context_files`), then its task prompt; its own iteration budget
 * (`delegation.max_iterations`); the delegation model or the parent's, with the parent's fallbacks and retries.
 */
export function createSessionDelegationHost(options: SessionDelegationOptions): DelegationHost {
  const { config, settings } = options;
  return {
    settings,
    // Read at each delegation: /reload-mcp may have replaced the parent's MCP tools since.
    get parentTools() {
      return options.parentTools;
    },
    ...(options.recordUsage ? { recordUsage: options.recordUsage } : {}),
    openChild(spec: ChildSpec): ChildOpening {
      const resolution = resolveChildRuntime(settings.endpoint, options.parentRuntime(), config.env, config.configPath);
      if (!resolution.ok) return resolution;
      const runtime = resolution.runtime;
      const base = buildSystemPrompt({
        home: config.home,
        cwd: options.cwd,
        model: runtime.model,
        providerId: runtime.providerId,
        contextLength: runtime.contextLength,
        settings: { ...readPromptSettings(config.yaml), memoryEnabled: false, userProfileEnabled: false },
        toolNames: new Set(spec.tools.map((t) => t.name)),
        toolsets: toolsetsOf(spec.tools.map((t) => t.name)),
        now: new Date(),
      });
      // The context layer (AGENTS.md and friends) is left out on purpose: upstream children skip context files.
      const systemPrompt = [base.layers.stable, base.layers.volatile, spec.taskPrompt]
        .filter((part) => part)
        .join("\n\n");
      const conversation = new Conversation({
        runtime,
        systemPrompt,
        openModelClient: async (r) => createModelClientWithFallbacks(r, options.fallbacks, options.retry),
        tools: spec.tools,
        maxIterations: settings.maxIterations,
        compression: options.compression,
        reasoningEffort: options.parentReasoningEffort?.(),
      });
      return { ok: true, conversation };
    },
  };
}

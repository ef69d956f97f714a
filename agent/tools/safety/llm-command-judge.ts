import type { ApprovalJudgeSettings } from "../../config/approval-judge-settings.js";
import type { Env } from "../../config/hermes-home.js";
import type { RuntimeProvider } from "../../config/runtime-provider.js";
import { resolveChildRuntime } from "../../delegation/child-runtime.js";
import { createModelClient } from "../../providers/create-model-client.js";
import type { ModelClient } from "../../providers/model-client.js";
import { buildJudgePrompt } from "./command-judge-prompt.js";
import { verdictOf, type CommandJudge, type JudgeVerdict } from "./command-judge.js";

export interface LlmCommandJudgeOptions {
  readonly settings: ApprovalJudgeSettings;
  /** The session's model as it is now (`/model` may have switched it): the judge when `auxiliary.approval` is empty. */
  readonly sessionRuntime: () => RuntimeProvider;
  readonly env: Env;
  readonly configPath: string;
  /** Opens a client for a runtime; tests may substitute one. No retries: a judge that fails is an ESCALATE. */
  readonly openClient?: (runtime: RuntimeProvider) => Promise<ModelClient>;
}

/**
 * The auxiliary-LLM judge of `approvals.mode: smart`, as upstream's `_smart_approve` calls it: temperature 0, at
 * most 16 tokens, the system prompt and the flagged command (comments stripped, inside `<command>…</command>`).
 *
 * Why every failure is ESCALATE (never APPROVE): the judge is a convenience that saves the user a click, not a
 * safety layer of its own. An LLM judging commands another LLM proposed can itself be talked round by text in the
 * command, so the only thing it may do unsupervised is let through what it plainly calls safe; an unreachable
 * endpoint, a timeout, a refusal, a chatty or empty reply (a reasoning model spending its 16 tokens on thinking)
 * all hand the decision back to the user, exactly as manual mode would.
 */
export function createLlmCommandJudge(options: LlmCommandJudgeOptions): CommandJudge {
  const open = options.openClient ?? createModelClient;
  // One client per endpoint, reused across judgements (opening one loads an SDK); keyed by what the client binds.
  let cached: { readonly key: string; readonly client: Promise<ModelClient> } | undefined;
  const clientFor = (runtime: RuntimeProvider): Promise<ModelClient> => {
    const key = [runtime.apiMode, runtime.baseUrl, runtime.apiKey ?? ""].join("\n");
    if (cached?.key !== key) cached = { key, client: open(runtime) };
    return cached.client;
  };

  const ask = async (runtime: RuntimeProvider, system: string, user: string, deadline: AbortSignal): Promise<JudgeVerdict> => {
    try {
      const client = await clientFor(runtime);
      let answer = "";
      const request = { model: runtime.model, systemPrompt: system, messages: [{ role: "user" as const, content: user }], tools: [], temperature: 0, maxOutputTokens: 16 };
      for await (const event of client.stream(request, deadline)) {
        if (event.type === "text") answer += event.text;
      }
      return deadline.aborted ? "escalate" : verdictOf(answer);
    } catch {
      cached = undefined;
      return "escalate";
    }
  };

  return {
    async judge(command: string, description: string, signal: AbortSignal): Promise<JudgeVerdict> {
      const prompt = buildJudgePrompt(command, description, options.settings.policy);
      if (!prompt) return "escalate";
      const resolution = resolveChildRuntime(options.settings.endpoint, options.sessionRuntime(), options.env, options.configPath, "auxiliary.approval");
      if (!resolution.ok) return "escalate";
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(options.settings.timeoutMs)]);
      // The race is what keeps the promise of "never hangs": a client that ignored its signal still loses to it.
      const expired = new Promise<JudgeVerdict>((resolve) => {
        if (deadline.aborted) resolve("escalate");
        deadline.addEventListener("abort", () => resolve("escalate"), { once: true });
      });
      return Promise.race([ask(resolution.runtime, prompt.system, prompt.user, deadline), expired]);
    },
  };
}

import type { ApprovalJudgeSettings } from "../../config/approval-judge-settings.js";
import { resolveChildRuntime } from "../../config/child-runtime.js";
import type { Env } from "../../config/hermes-home.js";
import type { RuntimeProvider } from "../../config/runtime-provider.js";
import { collectReply } from "../../providers/collect-reply.js";
import { createModelClient } from "../../providers/create-model-client.js";
import type { ModelClient, ModelRequest } from "../../providers/model-client.js";
import { samplingContractOf } from "../../providers/sampling-contract.js";
import { type CommandJudge, type JudgeVerdict, verdictOf } from "./command-judge.js";
import { buildJudgePrompt } from "./command-judge-prompt.js";

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
 * most 16 tokens (adapted to reasoning models, see judgeSampling), the system prompt and the flagged command (comments stripped, inside `<command>…</command>`).
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

  const ask = async (
    runtime: RuntimeProvider,
    system: string,
    user: string,
    deadline: AbortSignal,
  ): Promise<JudgeVerdict> => {
    try {
      const client = await clientFor(runtime);
      const request: ModelRequest = {
        model: runtime.model,
        systemPrompt: system,
        messages: [{ role: "user" as const, content: user }],
        tools: [],
        ...judgeSampling(runtime),
      };
      const { text } = await collectReply(client, request, deadline);
      return deadline.aborted ? "escalate" : verdictOf(text);
    } catch {
      cached = undefined;
      return "escalate";
    }
  };

  return {
    async judge(command: string, description: string, signal: AbortSignal): Promise<JudgeVerdict> {
      const prompt = buildJudgePrompt(command, description, options.settings.policy);
      if (!prompt) return "escalate";
      const resolution = resolveChildRuntime(
        options.settings.endpoint,
        options.sessionRuntime(),
        options.env,
        options.configPath,
        "auxiliary.approval",
      );
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

/** The answer is one word; a reasoning model needs room to think first, or its reply is empty (an ESCALATE). */
const ANSWER_TOKENS = 16;
const REASONING_HEADROOM_TOKENS = 4_096;

/**
 * Upstream's temperature 0 and 16 tokens, where the model takes them. A model that thinks by default is asked to
 * think as little as it can ("minimal", clamped by the reasoning policy to the weakest level it accepts: low for
 * o3 or Claude) and given room for that thinking plus the answer; only the default temperature is sent where no
 * other is accepted (OpenAI's reasoning models, Claude Opus 4.7 on). The providers put the cap under the name the
 * model takes (`max_completion_tokens` for OpenAI's reasoning models on chat completions).
 */
function judgeSampling(
  runtime: RuntimeProvider,
): Pick<ModelRequest, "temperature" | "maxOutputTokens" | "reasoningEffort"> {
  const contract = samplingContractOf(runtime);
  return {
    ...(contract.fixedTemperature ? {} : { temperature: 0 }),
    ...(contract.reasonsByDefault
      ? { maxOutputTokens: ANSWER_TOKENS + REASONING_HEADROOM_TOKENS, reasoningEffort: "minimal" as const }
      : { maxOutputTokens: ANSWER_TOKENS }),
  };
}

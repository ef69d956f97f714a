import {
  claudeGeneration,
  type ReasoningRoute,
  reasoningGatewayOf,
  reasoningSupportOf,
} from "../config/model-reasoning.js";

/**
 * What a model accepts besides reasoning parameters, for requests that set their own sampling (the approval judge
 * asks for temperature 0 and a 16-token answer). Getting these wrong is an HTTP 400, not a worse answer:
 * - OpenAI's reasoning models (o1/o3/o4, gpt-5...) take only the default temperature, and on chat completions
 *   refuse `max_tokens` for `max_completion_tokens`, which also counts their hidden reasoning;
 * - Claude Opus 4.7 and later refuse any temperature, top_p or top_k (upstream's `_forbids_sampling_params`, the
 *   same models as the "xhigh" effort: newer and unknown Claude models included).
 */
export interface SamplingContract {
  /** Only the model's default temperature is accepted: none may be sent. */
  readonly fixedTemperature: boolean;
  /** The chat-completions name of the output cap. */
  readonly maxTokensField: "max_tokens" | "max_completion_tokens";
  /** The model thinks before answering unless told otherwise, spending the output allowance on it. */
  readonly reasonsByDefault: boolean;
}

export function samplingContractOf(route: ReasoningRoute): SamplingContract {
  const bare = route.model.toLowerCase().split("/").pop()!.replace(/:.*$/, "");
  // The OpenAI families are recognised by name on any route (the Responses table is exactly those families).
  const openAi = reasoningSupportOf({ ...route, apiMode: "codex_responses" });
  if (openAi.status === "supported") {
    // OpenRouter and Nous translate `max_tokens` for the model they route to; OpenAI, Azure and proxies do not.
    const direct = route.apiMode === "chat_completions" && reasoningGatewayOf(route) === undefined;
    return {
      fixedTemperature: true,
      maxTokensField: direct ? "max_completion_tokens" : "max_tokens",
      reasonsByDefault: true,
    };
  }
  if (openAi.status === "rejected") return PLAIN; // gpt-4o and friends, wherever they are served
  const claude = claudeGeneration(bare);
  if (claude)
    return { fixedTemperature: claude.xhighEffort, maxTokensField: "max_tokens", reasonsByDefault: claude.adaptive };
  // Others: the route's table (OpenRouter's reasoning families, Nous) says whether a default effort applies.
  const support = reasoningSupportOf(route);
  return { ...PLAIN, reasonsByDefault: support.status === "supported" && support.defaultEffort !== "none" };
}

/** `{ temperature }` when one is asked for and the model accepts it, else nothing (the model's default). */
export function temperatureParam(route: ReasoningRoute, temperature: number | undefined): { temperature?: number } {
  return temperature === undefined || samplingContractOf(route).fixedTemperature ? {} : { temperature };
}

const PLAIN: SamplingContract = { fixedTemperature: false, maxTokensField: "max_tokens", reasonsByDefault: false };

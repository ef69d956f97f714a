import { type ReasoningEffort, reasoningGatewayOf } from "../config/model-reasoning.js";
import type { RuntimeProvider } from "../config/runtime-provider.js";

/**
 * The reasoning request parameters of the two OpenAI wire formats, for an effort already decided (reasoning-policy.ts).
 * Anthropic's thinking lives in anthropic-thinking.ts. "default" is resolved by the policy before a provider sees a
 * request; should one arrive here anyway it asks for nothing, which is what a model's default needs.
 */
export type WireEffort = ReasoningEffort | "default" | undefined;

/**
 * Chat completions. OpenRouter and Nous Portal take upstream's `reasoning: {enabled, effort}` object (OpenRouter maps
 * it onto whichever provider serves the model); Nous refuses `enabled: false`, so "none" sends nothing there.
 * Everyone else (OpenAI, Azure, xAI, vLLM, Ollama, LM Studio...) takes OpenAI's top-level `reasoning_effort`.
 */
export function chatReasoningParams(
  runtime: Pick<RuntimeProvider, "providerId" | "baseUrl">,
  effort: WireEffort,
): Record<string, unknown> {
  if (effort === undefined || effort === "default") return {};
  const gateway = reasoningGatewayOf(runtime);
  if (gateway === undefined) return { reasoning_effort: effort };
  if (effort === "none") return gateway === "nous" ? {} : { reasoning: { enabled: false } };
  return { reasoning: { enabled: true, effort } };
}

/**
 * The Responses API, as upstream's codex transport: `reasoning: {effort, summary: "auto"}`, the summary being what
 * streams as thoughts; "none" is sent as an effort of its own (an omitted field would leave the model's default on).
 * Upstream also asks for `reasoning.encrypted_content` to replay reasoning items; we resend plain history with
 * `store: false` and no reasoning items, which the API accepts, so we do not ask for them.
 */
export function responsesReasoningParams(effort: WireEffort): Record<string, unknown> {
  if (effort === undefined || effort === "default") return {};
  if (effort === "none") return { reasoning: { effort: "none" } };
  return { reasoning: { effort, summary: "auto" } };
}

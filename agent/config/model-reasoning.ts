import type { RuntimeProvider } from "./runtime-provider.js";

/**
 * Which models take reasoning ("thinking") parameters, which effort levels each accepts, and what it does when it is
 * given none. Sending a reasoning parameter to a model that does not take it is an HTTP 400 that kills the turn, so
 * upstream Hermes gates it to known families and so do we: a model is `supported` (we list its levels and may send
 * a default), `rejected` (never sent, whatever the configuration says) or `unknown` (sent only when the user chose an
 * effort, and dropped for the rest of the session if the endpoint refuses it; see reasoning-policy.ts).
 */

/** Upstream's `agent.reasoning_effort` vocabulary (hermes_constants.VALID_REASONING_EFFORTS, plus "none"), weakest first. */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return typeof value === "string" && (REASONING_EFFORTS as readonly string[]).includes(value);
}

export type ReasoningSupport =
  | {
      readonly status: "supported";
      /** The levels this model accepts, weakest first (the ACP "Thinking" choices). */
      readonly efforts: readonly ReasoningEffort[];
      /** What the model does when no effort is chosen (shown as the current choice until the user picks one). */
      readonly defaultEffort: ReasoningEffort;
      /** Whether that default is sent explicitly (upstream does on OpenRouter, Nous and the Responses API). */
      readonly sendsDefault: boolean;
    }
  | { readonly status: "rejected" | "unknown" };

/** The part of a runtime that decides reasoning support. */
export type ReasoningRoute = Pick<RuntimeProvider, "providerId" | "baseUrl" | "apiMode" | "model">;

const ALL: readonly ReasoningEffort[] = REASONING_EFFORTS;
const UNKNOWN: ReasoningSupport = { status: "unknown" };
const REJECTED: ReasoningSupport = { status: "rejected" };

function supported(
  efforts: readonly ReasoningEffort[],
  defaultEffort: ReasoningEffort,
  sendsDefault: boolean,
): ReasoningSupport {
  return { status: "supported", efforts, defaultEffort, sendsDefault };
}

export function reasoningSupportOf(route: ReasoningRoute): ReasoningSupport {
  const model = route.model.toLowerCase();
  // "openai/gpt-5:nitro" → "gpt-5": vendor prefixes and OpenRouter variant suffixes do not change the family.
  const bare = model.split("/").pop()!.replace(/:.*$/, "");
  switch (route.apiMode) {
    case "anthropic_messages":
      return anthropicSupport(bare);
    case "codex_responses":
      return openAiFamilySupport(bare, true) ?? UNKNOWN;
    case "chat_completions":
      return chatSupport(route, model, bare);
  }
}

/**
 * Upstream's `_supports_reasoning_extra_body`: OpenRouter forwards `reasoning` to whichever provider serves the model
 * and some reject it, so only known reasoning families get it; Nous Portal and the Vercel AI Gateway always do.
 */
const OPENROUTER_REASONING_PREFIXES = ["deepseek/", "anthropic/", "openai/", "x-ai/", "qwen/qwen3"];

function chatSupport(route: ReasoningRoute, model: string, bare: string): ReasoningSupport {
  const gateway = reasoningGatewayOf(route);
  if (gateway === "openrouter") {
    // Upstream lists "google/gemini-2"; Gemini 3 reasons through OpenRouter the same way.
    const known = OPENROUTER_REASONING_PREFIXES.some((p) => model.startsWith(p)) || /^google\/gemini-[2-9]/.test(model);
    return known ? supported(ALL, "medium", true) : UNKNOWN;
  }
  // Nous Portal insists on reasoning being enabled: upstream never sends `enabled: false` there, so no "none".
  if (gateway === "nous")
    return supported(
      ALL.filter((e) => e !== "none"),
      "medium",
      true,
    );
  // The OpenAI families are recognised by name on any host (OpenAI itself, Azure, a LiteLLM proxy...). Their API
  // default is medium, so nothing needs to be sent until the user chooses.
  const openAi = openAiFamilySupport(bare, false);
  if (openAi) return openAi;
  // xAI documents that grok-4 errors on reasoning_effort (it always reasons); OpenRouter's x-ai/ is handled above.
  if (/^grok-4(-|$)/.test(bare)) return REJECTED;
  return UNKNOWN;
}

/**
 * OpenAI's reasoning models and the effort levels each generation accepts (a level outside the list is a 400).
 * Non-reasoning GPT models reject the parameter outright. `sendsDefault`: the Responses API gets upstream's
 * explicit medium (with a reasoning summary, so thoughts stream); chat completions leaves the API default.
 */
function openAiFamilySupport(bare: string, sendsDefault: boolean): ReasoningSupport | undefined {
  const low3: readonly ReasoningEffort[] = ["low", "medium", "high"];
  if (/^(gpt-[34]|chatgpt-|o1-mini|o1-preview)|^gpt-5(\.\d+)?-chat/.test(bare)) return REJECTED;
  if (/^o[134](-|$)|^codex-mini/.test(bare)) return supported(low3, "medium", sendsDefault);
  if (/^gpt-5(-codex)/.test(bare)) return supported(low3, "medium", sendsDefault);
  if (/^gpt-5(-|$)/.test(bare)) return supported(["minimal", "low", "medium", "high"], "medium", sendsDefault);
  if (/^gpt-5\.1-codex-max/.test(bare)) return supported(["low", "medium", "high", "xhigh"], "medium", sendsDefault);
  if (/^gpt-5\.1-codex/.test(bare)) return supported(low3, "medium", sendsDefault);
  if (/^gpt-5\.1(-|$)/.test(bare)) return supported(["none", "low", "medium", "high"], "medium", sendsDefault);
  // gpt-5.2 and later (and any gpt-6): upstream's CODEX_LEGACY_EFFORTS ladder.
  if (/^gpt-(5\.([2-9]|\d\d)|[6-9])/.test(bare))
    return supported(["none", "low", "medium", "high", "xhigh"], "medium", sendsDefault);
  return undefined;
}

/**
 * Claude thinking as upstream's anthropic_adapter sees it: Claude 4.6 and later think adaptively (and by default,
 * at the API's default effort, high); 3.7 to 4.5 take a token budget and think only when asked; Haiku and the
 * models before 3.7 have no extended thinking. Other models behind an Anthropic-compatible endpoint (MiniMax, Kimi,
 * GLM...) are unknown: they get a budget only when the user chose an effort.
 */
function anthropicSupport(bare: string): ReasoningSupport {
  const claude = claudeGeneration(bare);
  if (!claude) return UNKNOWN;
  if (!claude.thinks) return REJECTED;
  const efforts: readonly ReasoningEffort[] = ["none", "low", "medium", "high", "xhigh"];
  return claude.adaptive ? supported(efforts, "high", false) : supported(efforts, "none", false);
}

export interface ClaudeGeneration {
  /** Extended thinking exists for this model. */
  readonly thinks: boolean;
  /** Adaptive thinking (`thinking: {type: "adaptive"}` + `output_config.effort`) rather than a token budget. */
  readonly adaptive: boolean;
  /** Accepts the "xhigh" adaptive effort (Opus 4.7 on); 4.6 takes "max" as its strongest. */
  readonly xhighEffort: boolean;
  /** Keeps earlier turns' thinking in context (Opus 4.5+, Sonnet 4.6+), so it is worth sending back on every turn. */
  readonly keepsPriorThinking: boolean;
  /** The most output tokens a reply may have (thinking included). */
  readonly maxOutputTokens: number;
}

/**
 * Reads a Claude model id ("claude-sonnet-4-5-20250929", "claude-opus-4.6", "claude-3-7-sonnet-latest"). Unknown
 * newer Claude models default to the newest contract, as upstream does: a table of modern versions would go stale
 * and send a new model down the legacy path.
 */
export function claudeGeneration(bare: string): ClaudeGeneration | undefined {
  if (!bare.includes("claude")) return undefined;
  const legacy = /claude-(\d)(?:-(\d))?-(opus|sonnet|haiku)/.exec(bare);
  if (legacy) {
    const version = Number(legacy[1]) * 10 + Number(legacy[2] ?? 0);
    const thinks = version >= 37 && legacy[3] === "sonnet";
    return {
      thinks,
      adaptive: false,
      xhighEffort: false,
      keepsPriorThinking: false,
      maxOutputTokens: thinks ? 64_000 : legacy[3] === "haiku" && version < 35 ? 4_096 : 8_192,
    };
  }
  const modern = /claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2})(?=$|[-.]))?/.exec(bare);
  if (!modern) {
    if (/claude-(2|instant)/.test(bare))
      return { thinks: false, adaptive: false, xhighEffort: false, keepsPriorThinking: false, maxOutputTokens: 4_096 };
    return { thinks: true, adaptive: true, xhighEffort: true, keepsPriorThinking: true, maxOutputTokens: 128_000 };
  }
  const family = modern[1]!;
  const version = Number(modern[2]) * 10 + Number(modern[3] ?? 0);
  // Upstream has no extended thinking for Haiku at all ("Haiku does NOT support extended thinking").
  if (family === "haiku")
    return { thinks: false, adaptive: false, xhighEffort: false, keepsPriorThinking: false, maxOutputTokens: 64_000 };
  const adaptive = version >= 46;
  return {
    thinks: true,
    adaptive,
    xhighEffort: version >= 47,
    keepsPriorThinking: family === "opus" ? version >= 45 : version >= 46,
    maxOutputTokens:
      version >= 46 ? (family === "opus" ? 128_000 : 64_000) : family === "opus" && version < 45 ? 32_000 : 64_000,
  };
}

/**
 * Upstream's `clamp_effort`: a level the model accepts passes unchanged; otherwise the nearest weaker level it
 * accepts (a clamp never raises cost), else its weakest. "none" is never the target of a request to think: asking
 * for "minimal" must not switch thinking off.
 */
export function clampEffort(effort: ReasoningEffort, efforts: readonly ReasoningEffort[]): ReasoningEffort {
  if (efforts.includes(effort)) return effort;
  const candidates = efforts.filter((e) => e !== "none");
  if (candidates.length === 0) return effort;
  const rank = (e: ReasoningEffort) => REASONING_EFFORTS.indexOf(e);
  const weaker = candidates.filter((e) => rank(e) < rank(effort));
  return weaker.length > 0 ? weaker[weaker.length - 1]! : candidates[0]!;
}

/** The Thinking level to show for a model: the chosen effort as the model will get it, else its default. */
export function shownEffort(
  support: Extract<ReasoningSupport, { status: "supported" }>,
  chosen: ReasoningEffort | undefined,
): ReasoningEffort {
  if (chosen === undefined) return support.defaultEffort;
  if (chosen === "none") return support.efforts.includes("none") ? "none" : support.defaultEffort;
  return clampEffort(chosen, support.efforts);
}

/**
 * Endpoints that take OpenRouter's `reasoning: {enabled, effort}` object rather than OpenAI's `reasoning_effort`:
 * OpenRouter and the Vercel AI Gateway ("openrouter"), and Nous Portal ("nous"). Known by provider or by host, so
 * a provider pointed at a proxy keeps its wire format.
 */
export function reasoningGatewayOf(
  route: Pick<ReasoningRoute, "providerId" | "baseUrl">,
): "openrouter" | "nous" | undefined {
  const host = hostOf(route.baseUrl);
  if (route.providerId === "openrouter" || host.endsWith("openrouter.ai") || host === "ai-gateway.vercel.sh")
    return "openrouter";
  if (route.providerId === "nous" || host.endsWith("nousresearch.com")) return "nous";
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

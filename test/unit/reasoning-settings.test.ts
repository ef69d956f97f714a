import { strict as assert } from "node:assert";
import { ConfigError } from "../../agent/config/config-error.js";
import {
  clampEffort,
  type ReasoningRoute,
  reasoningSupportOf,
  shownEffort,
} from "../../agent/config/model-reasoning.js";
import type { ApiMode } from "../../agent/config/provider-catalog.js";
import { readReasoningEffort } from "../../agent/config/reasoning-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { effortToSend } from "../../agent/providers/reasoning-policy.js";

const yaml = (text: string) => parseYamlText("/home/u/.hermes/config.yaml", text);

function configError(text: string): ConfigError {
  try {
    readReasoningEffort(yaml(text));
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  throw new Error("expected a ConfigError");
}

function route(
  model: string,
  apiMode: ApiMode = "chat_completions",
  providerId = "custom",
  baseUrl = "http://127.0.0.1:8000/v1",
): ReasoningRoute {
  return { model, apiMode, providerId, baseUrl };
}

describe("agent.reasoning_effort in config.yaml", () => {
  it("reads each of upstream's levels, whatever the case and spacing", () => {
    for (const level of ["none", "minimal", "low", "medium", "high", "xhigh"]) {
      assert.equal(readReasoningEffort(yaml(`agent:\n  reasoning_effort: ${level}\n`)), level);
    }
    assert.equal(readReasoningEffort(yaml('agent:\n  reasoning_effort: " High "\n')), "high");
  });

  it("leaves the models their defaults when it is absent or empty (upstream writes an empty string)", () => {
    assert.equal(readReasoningEffort(yaml("model: x\n")), undefined);
    assert.equal(readReasoningEffort(yaml("agent:\n  max_turns: 20\n")), undefined);
    assert.equal(readReasoningEffort(yaml('agent:\n  reasoning_effort: ""\n')), undefined);
    assert.equal(readReasoningEffort(yaml("agent:\n  reasoning_effort:\n")), undefined);
  });

  it("points at the line of a value it does not know, naming the choices", () => {
    const error = configError("model: x\nagent:\n  max_turns: 20\n  reasoning_effort: extreme\n");
    assert.equal(error.problem.line, 4);
    assert.equal(
      error.message,
      "/home/u/.hermes/config.yaml:4:21: agent.reasoning_effort must be one of none, minimal, low, medium, high, xhigh, not 'extreme'",
    );
    assert.equal(configError("agent:\n  reasoning_effort: 3\n").problem.line, 2);
    assert.match(configError("agent: fast\n").message, /config\.yaml:1:8: `agent` must be a mapping/);
  });
});

describe("which models take reasoning parameters", () => {
  it("knows OpenRouter's reasoning families (upstream's list) and leaves other OpenRouter models unknown", () => {
    const openrouter = (model: string) =>
      reasoningSupportOf(route(model, "chat_completions", "openrouter", "https://openrouter.ai/api/v1"));
    for (const model of [
      "anthropic/claude-sonnet-4.5",
      "openai/gpt-5",
      "deepseek/deepseek-r1",
      "x-ai/grok-4",
      "qwen/qwen3-coder",
      "google/gemini-2.5-pro",
    ]) {
      assert.deepEqual(
        openrouter(model),
        {
          status: "supported",
          efforts: ["none", "minimal", "low", "medium", "high", "xhigh"],
          defaultEffort: "medium",
          sendsDefault: true,
        },
        model,
      );
    }
    assert.equal(openrouter("meta-llama/llama-3.3-70b-instruct").status, "unknown");
    // A custom provider whose base URL is OpenRouter's is OpenRouter all the same.
    assert.equal(
      reasoningSupportOf(route("openai/o3", "chat_completions", "custom", "https://openrouter.ai/api/v1")).status,
      "supported",
    );
  });

  it("gives each OpenAI generation the levels it accepts, and refuses non-reasoning GPT models", () => {
    const efforts = (model: string, apiMode: ApiMode = "chat_completions") => {
      const support = reasoningSupportOf(route(model, apiMode, "openai", "https://api.openai.com/v1"));
      return support.status === "supported" ? support.efforts.join(",") : support.status;
    };
    assert.equal(efforts("o3"), "low,medium,high");
    assert.equal(efforts("o4-mini"), "low,medium,high");
    assert.equal(efforts("gpt-5"), "minimal,low,medium,high");
    assert.equal(efforts("gpt-5-mini"), "minimal,low,medium,high");
    assert.equal(efforts("gpt-5-codex", "codex_responses"), "low,medium,high");
    assert.equal(efforts("gpt-5.1"), "none,low,medium,high");
    assert.equal(efforts("gpt-5.2"), "none,low,medium,high,xhigh");
    assert.equal(efforts("gpt-4o"), "rejected");
    assert.equal(efforts("gpt-4.1", "codex_responses"), "rejected");
    assert.equal(efforts("o1-mini"), "rejected");
    assert.equal(efforts("gpt-5-chat-latest"), "rejected");
    assert.equal(efforts("scripted-model", "codex_responses"), "unknown");
  });

  it("tells adaptive Claude (4.6 on) from budget Claude, and knows which Claude models cannot think", () => {
    const claude = (model: string) =>
      reasoningSupportOf(route(model, "anthropic_messages", "anthropic", "https://api.anthropic.com"));
    assert.deepEqual(claude("claude-sonnet-4-5-20250929"), {
      status: "supported",
      efforts: ["none", "low", "medium", "high", "xhigh"],
      defaultEffort: "none",
      sendsDefault: false,
    });
    assert.deepEqual(claude("claude-3-7-sonnet-latest"), claude("claude-opus-4-1"));
    assert.deepEqual(claude("claude-opus-4.6"), {
      status: "supported",
      efforts: ["none", "low", "medium", "high", "xhigh"],
      defaultEffort: "high",
      sendsDefault: false,
    });
    for (const model of [
      "claude-3-5-sonnet-latest",
      "claude-3-opus-20240229",
      "claude-haiku-4-5",
      "claude-3-5-haiku-latest",
    ])
      assert.equal(claude(model).status, "rejected", model);
    assert.equal(reasoningSupportOf(route("MiniMax-M2", "anthropic_messages")).status, "unknown");
  });

  it("leaves local and unlisted models unknown, and knows grok-4 refuses reasoning_effort", () => {
    assert.equal(reasoningSupportOf(route("qwen3:32b")).status, "unknown");
    assert.equal(
      reasoningSupportOf(route("grok-4", "chat_completions", "xai", "https://api.x.ai/v1")).status,
      "rejected",
    );
    assert.equal(
      reasoningSupportOf(
        route("deepseek-chat", "chat_completions", "nous", "https://inference-api.nousresearch.com/v1"),
      ).status,
      "supported",
    );
  });
});

describe("the effort sent", () => {
  const gpt51 = route("gpt-5.1");
  it("clamps a chosen level to the nearest weaker one the model accepts, never to 'none'", () => {
    assert.equal(clampEffort("xhigh", ["none", "low", "medium", "high"]), "high");
    assert.equal(clampEffort("minimal", ["none", "low", "medium", "high"]), "low");
    assert.equal(clampEffort("medium", ["low", "high"]), "low");
    assert.equal(effortToSend(gpt51, "xhigh"), "high");
    assert.equal(effortToSend(gpt51, "none"), "none");
    assert.equal(effortToSend(route("o3"), "none"), undefined, "o3 has no off switch: its default stands");
  });

  it("sends a default only where upstream does, nothing to refusing models, and only a chosen level to unknown ones", () => {
    const openrouter = route("openai/gpt-5", "chat_completions", "openrouter", "https://openrouter.ai/api/v1");
    assert.equal(effortToSend(openrouter, "default"), "medium");
    assert.equal(effortToSend(openrouter, undefined), undefined, "auxiliary calls ask for nothing, as upstream's");
    assert.equal(effortToSend(route("gpt-5", "codex_responses"), "default"), "medium");
    assert.equal(effortToSend(gpt51, "default"), undefined, "chat completions leaves OpenAI's own default");
    assert.equal(effortToSend(route("claude-sonnet-4-5", "anthropic_messages", "anthropic"), "default"), undefined);
    assert.equal(effortToSend(route("gpt-4o"), "high"), undefined);
    assert.equal(effortToSend(route("llama3"), "default"), undefined);
    assert.equal(effortToSend(route("llama3"), "minimal"), "minimal");
  });

  it("shows the chosen level as the model gets it, else the model's default", () => {
    const support = reasoningSupportOf(gpt51);
    assert.ok(support.status === "supported");
    assert.equal(shownEffort(support, undefined), "medium");
    assert.equal(shownEffort(support, "xhigh"), "high");
    const o3 = reasoningSupportOf(route("o3"));
    assert.ok(o3.status === "supported");
    assert.equal(shownEffort(o3, "none"), "medium");
  });
});

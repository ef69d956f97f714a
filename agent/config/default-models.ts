/**
 * The model `--setup` offers first for each provider: a capable, tool-calling model the provider serves under that
 * name. Only a suggestion (the user may type any other); providers whose models depend on what the user runs (LM
 * Studio, vLLM, a custom endpoint) have none and the name must be typed.
 */
const DEFAULT_MODELS: Readonly<Record<string, string>> = {
  openrouter: "anthropic/claude-sonnet-4",
  nous: "Hermes-4-405B",
  openai: "gpt-5",
  "openai-codex": "gpt-5-codex",
  anthropic: "claude-sonnet-4-5",
  gemini: "gemini-2.5-pro",
  deepseek: "deepseek-chat",
  xai: "grok-4",
  mistral: "mistral-large-latest",
  groq: "openai/gpt-oss-120b",
  zai: "glm-4.6",
  kimi: "kimi-k2-0905-preview",
  alibaba: "qwen3-coder-plus",
  minimax: "MiniMax-M2",
  huggingface: "openai/gpt-oss-120b",
  nvidia: "openai/gpt-oss-120b",
  ollama: "llama3.1",
};

export function defaultModelOf(providerId: string): string | undefined {
  return DEFAULT_MODELS[providerId];
}

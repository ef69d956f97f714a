/** The three wire formats the engine speaks. */
export type ApiMode = "chat_completions" | "codex_responses" | "anthropic_messages";

export const API_MODES: readonly ApiMode[] = ["chat_completions", "codex_responses", "anthropic_messages"];

/** What a provider name means: where it lives, how to talk to it, and which variables may hold its key. */
export interface ProviderInfo {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly apiMode: ApiMode;
  /** Checked in order; the first that is set wins. Empty for servers that need no key. */
  readonly keyVariables: readonly string[];
  /** Local servers (Ollama, vLLM, LM Studio, custom) work without a key. */
  readonly keyOptional: boolean;
}

function provider(
  id: string,
  label: string,
  baseUrl: string,
  keyVariables: readonly string[],
  options: { apiMode?: ApiMode; keyOptional?: boolean } = {},
): ProviderInfo {
  return {
    id,
    label,
    baseUrl,
    keyVariables,
    apiMode: options.apiMode ?? "chat_completions",
    keyOptional: options.keyOptional ?? false,
  };
}

// Names and key variables as the Python original's provider table (seed 001 §三); aliases map to the same entry.
const PROVIDERS: readonly ProviderInfo[] = [
  provider("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", ["OPENROUTER_API_KEY"]),
  provider("nous", "Nous Portal", "https://inference-api.nousresearch.com/v1", ["NOUS_API_KEY"]),
  provider("openai", "OpenAI", "https://api.openai.com/v1", ["OPENAI_API_KEY"]),
  provider("openai-codex", "OpenAI Codex", "https://api.openai.com/v1", ["OPENAI_API_KEY"], {
    apiMode: "codex_responses",
  }),
  provider("anthropic", "Anthropic", "https://api.anthropic.com", ["ANTHROPIC_API_KEY"], {
    apiMode: "anthropic_messages",
  }),
  provider("gemini", "Google Gemini", "https://generativelanguage.googleapis.com/v1beta/openai", [
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
  ]),
  provider("deepseek", "DeepSeek", "https://api.deepseek.com/v1", ["DEEPSEEK_API_KEY"]),
  provider("xai", "xAI (Grok)", "https://api.x.ai/v1", ["XAI_API_KEY"]),
  provider("mistral", "Mistral", "https://api.mistral.ai/v1", ["MISTRAL_API_KEY"]),
  provider("groq", "Groq", "https://api.groq.com/openai/v1", ["GROQ_API_KEY"]),
  provider("zai", "Z.AI / ZhipuAI", "https://api.z.ai/api/paas/v4", ["GLM_API_KEY", "ZAI_API_KEY", "Z_AI_API_KEY"]),
  provider("kimi", "Kimi / Moonshot", "https://api.moonshot.ai/v1", ["KIMI_API_KEY"]),
  provider("alibaba", "Alibaba (Qwen)", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", [
    "DASHSCOPE_API_KEY",
  ]),
  provider("minimax", "MiniMax", "https://api.minimax.io/v1", ["MINIMAX_API_KEY"]),
  provider("huggingface", "Hugging Face", "https://router.huggingface.co/v1", ["HF_TOKEN"]),
  provider("nvidia", "NVIDIA NIM", "https://integrate.api.nvidia.com/v1", ["NVIDIA_API_KEY"]),
  provider("ollama", "Ollama (local)", "http://127.0.0.1:11434/v1", ["OLLAMA_API_KEY"], { keyOptional: true }),
  provider("lmstudio", "LM Studio (local)", "http://127.0.0.1:1234/v1", ["LM_API_KEY"], { keyOptional: true }),
  provider("vllm", "vLLM (local)", "http://127.0.0.1:8000/v1", ["VLLM_API_KEY"], { keyOptional: true }),
  provider("custom", "Custom OpenAI-compatible endpoint", "", ["CUSTOM_API_KEY", "OPENAI_API_KEY"], {
    keyOptional: true,
  }),
];

const ALIASES: Readonly<Record<string, string>> = {
  google: "gemini",
  "google-gemini": "gemini",
  codex: "openai-codex",
  claude: "anthropic",
  grok: "xai",
  glm: "zai",
  "z.ai": "zai",
  zhipu: "zai",
  moonshot: "kimi",
  qwen: "alibaba",
  dashscope: "alibaba",
  hf: "huggingface",
  "lm-studio": "lmstudio",
  local: "custom",
};

export function findProvider(name: string): ProviderInfo | undefined {
  const key = name.trim().toLowerCase();
  const id = ALIASES[key] ?? key;
  return PROVIDERS.find((p) => p.id === id);
}

export function knownProviderIds(): string[] {
  return PROVIDERS.map((p) => p.id);
}

/** Every variable the catalog names as holding a provider key (kept out of the agent's commands). */
export function providerKeyVariables(): ReadonlySet<string> {
  return new Set(PROVIDERS.flatMap((p) => p.keyVariables));
}

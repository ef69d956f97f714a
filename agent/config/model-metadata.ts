/**
 * Context windows of well-known model families, matched on the model id without its vendor prefix
 * ("anthropic/claude-sonnet-4" → "claude-sonnet-4"). First match wins, so specific entries come first.
 * config.yaml `model.context_length` overrides this table.
 */
const CONTEXT_LENGTHS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^claude-(opus|sonnet)-4[.-]?5|^claude-sonnet-4/, 200_000],
  [/^claude/, 200_000],
  [/^gpt-5/, 400_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-4o|^gpt-4-turbo/, 128_000],
  [/^o[134](-|$)/, 200_000],
  [/^gemini-(1\.5|2|3)/, 1_048_576],
  [/^gemma/, 131_072],
  [/^deepseek/, 128_000],
  [/^grok-4/, 256_000],
  [/^grok/, 131_072],
  [/^qwen3-coder/, 262_144],
  [/^qwen/, 131_072],
  [/^kimi-k2/, 262_144],
  [/^glm-4\.[56]/, 200_000],
  [/^glm/, 131_072],
  [/^(mistral-large|mistral-medium|codestral|devstral)/, 131_072],
  [/^(hermes-[34]|nous-hermes|llama-3\.[123]|llama3\.[123]|llama-4)/i, 131_072],
];

export function knownContextLength(model: string): number | undefined {
  const id = model.toLowerCase().split("/").pop()!.replace(/:.*$/, "");
  for (const [pattern, length] of CONTEXT_LENGTHS) if (pattern.test(id)) return length;
  return undefined;
}

/** The context window to plan with: the configured override, else the known value, else undefined. */
export function contextLengthOf(model: string, configured: number | undefined): number | undefined {
  return configured ?? knownContextLength(model);
}

/**
 * Which model families accept images, matched like the context windows above. Specific entries come first so that
 * "deepseek-vl2" is not caught by "deepseek". A model not listed is unknown: upstream asks the models.dev catalog,
 * which we cannot reach offline, and treats unknown as text-only; `model.supports_vision` settles it.
 */
const VISION_SUPPORT: ReadonlyArray<readonly [RegExp, boolean]> = [
  [/^claude-(2|instant)/, false],
  [/^claude/, true],
  [/^gpt-(3\.5|4$|4-0|4-32k)/, false],
  [/^gpt-(4o|4\.1|4\.5|4-turbo|5)/, true],
  [/^o[13]-mini|^o1-preview/, false],
  [/^o[134](-|$)/, true],
  [/^gemini/, true],
  [/^gemma-?3n?-(?!1b)/, true],
  [/-vl\b|-vl-|vl\d|^qvq|vision|^llava|^pixtral|^minicpm-v|^internvl|^glm-4\.\dv|^glm-\dv/, true],
  [/^grok-4/, true],
  [/^llama-4/, true],
  [/^(mistral-medium-3|mistral-small-3\.[12])/, true],
  [/^deepseek/, false],
  [/^(qwen|kimi|glm|grok|codestral|devstral|mistral|hermes|nous-hermes|llama|gemma)/i, false],
];

export function knownVisionSupport(model: string): boolean | undefined {
  const id = model.toLowerCase().split("/").pop()!.replace(/:.*$/, "");
  for (const [pattern, supported] of VISION_SUPPORT) if (pattern.test(id)) return supported;
  return undefined;
}

/** Whether images go to this model as images: the configured `supports_vision`, else the table; unknown is no. */
export function seesImages(model: string, configured: boolean | undefined): boolean {
  return configured ?? knownVisionSupport(model) ?? false;
}

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

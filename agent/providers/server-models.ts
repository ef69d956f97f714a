/**
 * The models an OpenAI-compatible server says it serves (`GET {base}/models`: Ollama, LM Studio, vLLM and most
 * proxies answer it), so that `--setup` can offer a local server's real model names instead of asking for one blind.
 * Best effort: any failure, or an answer of another shape, is an empty list.
 */
export async function listServerModels(baseUrl: string, timeoutMs = 3_000): Promise<string[]> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, "")}/models`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return [];
    return body.data.flatMap((entry: unknown) => {
      const id = (entry as { id?: unknown } | null)?.id;
      return typeof id === "string" && id.trim() ? [id.trim()] : [];
    });
  } catch {
    return [];
  }
}

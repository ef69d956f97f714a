import { decodeBody, fetchLimited, WebFetchError } from "./http-fetch.js";
import { isRecord, parseJson, type SearchHit, text } from "./web-results.js";

const MAX_RESPONSE_BYTES = 5_000_000;

/**
 * Search through a user-hosted SearXNG (`GET {SEARXNG_URL}/search?q=…&format=json`), as upstream's searxng plugin:
 * results sorted by SearXNG's score, best first, cut to `limit`. Search only: SearXNG does not fetch pages.
 * The instance is the user's own choice, so it may live on localhost: no private-address check here.
 */
export async function searxngSearch(
  query: string,
  limit: number,
  baseUrl: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ hits: SearchHit[] } | { error: string }> {
  const url = new URL(`${baseUrl}/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  url.searchParams.set("pageno", "1");
  let body: string;
  try {
    const response = await fetchLimited(url.href, {
      headers: { accept: "application/json" },
      signal,
      timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    if (response.status >= 400) {
      // SearXNG answers 403 when the json format is not enabled in its settings.yml: say how to fix it.
      const hint =
        response.status === 403 ? " (enable the json format under search.formats in the instance's settings.yml)" : "";
      return { error: `SearXNG returned HTTP ${response.status}${hint}` };
    }
    body = decodeBody(response.body, response.headers["content-type"]);
  } catch (error) {
    if (error instanceof WebFetchError && error.message === "cancelled") return { error: "Interrupted" };
    return { error: `Could not reach SearXNG at ${baseUrl}: ${(error as Error).message}` };
  }
  const parsed = parseJson(body, "SearXNG");
  if (!parsed.ok) return { error: parsed.error };
  const raw =
    isRecord(parsed.value) && Array.isArray(parsed.value.results) ? parsed.value.results.filter(isRecord) : [];
  const score = (r: Record<string, unknown>) => (Number.isFinite(Number(r.score)) ? Number(r.score) : 0);
  const best = [...raw].sort((a, b) => score(b) - score(a)).slice(0, limit);
  return {
    hits: best.map((r, i) => ({
      title: text(r.title),
      url: text(r.url),
      description: text(r.content),
      position: i + 1,
    })),
  };
}

import { decodeBody, fetchLimited, WebFetchError } from "./http-fetch.js";
import { isRecord, pageError, parseJson, type RawPage, type SearchHit, text } from "./web-results.js";

const TIMEOUT_MS = 60_000;
const MAX_RESPONSE_BYTES = 20_000_000;

export interface TavilyAccount {
  readonly apiKey: string;
  /** https://api.tavily.com, or TAVILY_BASE_URL. */
  readonly baseUrl: string;
}

/**
 * One POST to Tavily. As upstream, the key travels in the JSON body (`api_key`); it is never logged, and any echo of
 * it in an error reply is masked before the message reaches the model.
 */
async function tavilyRequest(
  endpoint: "search" | "extract",
  payload: Record<string, unknown>,
  account: TavilyAccount,
  signal: AbortSignal,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; error: string }> {
  const kind = endpoint === "search" ? "search" : "extract";
  let status: number;
  let body: string;
  try {
    const response = await fetchLimited(`${account.baseUrl}/${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ ...payload, api_key: account.apiKey }),
      signal,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    status = response.status;
    body = decodeBody(response.body, response.headers["content-type"]);
  } catch (error) {
    if (error instanceof WebFetchError && error.message === "cancelled") return { ok: false, error: "Interrupted" };
    return { ok: false, error: `Tavily ${kind} failed: ${mask((error as Error).message, account.apiKey)}` };
  }
  const parsed = parseJson(body, "Tavily");
  if (status >= 400) {
    const detail = parsed.ok ? errorDetail(parsed.value) : undefined;
    return {
      ok: false,
      error: `Tavily ${kind} failed: HTTP ${status}${detail ? ` (${mask(detail, account.apiKey)})` : ""}`,
    };
  }
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return isRecord(parsed.value)
    ? { ok: true, value: parsed.value }
    : { ok: false, error: `Tavily ${kind} returned an unexpected reply` };
}

/** Upstream: `max_results` at most 20, no raw content, no images; rows mapped to title/url/description/position. */
export async function tavilySearch(
  query: string,
  limit: number,
  account: TavilyAccount,
  signal: AbortSignal,
): Promise<{ hits: SearchHit[] } | { error: string }> {
  const reply = await tavilyRequest(
    "search",
    { query, max_results: Math.min(limit, 20), include_raw_content: false, include_images: false },
    account,
    signal,
  );
  if (!reply.ok) return { error: reply.error };
  const rows = Array.isArray(reply.value.results) ? reply.value.results.filter(isRecord) : [];
  return {
    hits: rows.map((r, i) => ({
      title: text(r.title),
      url: text(r.url),
      description: text(r.content),
      position: i + 1,
    })),
  };
}

/**
 * Tavily `/extract` for all URLs at once; `results` carry `raw_content`, `failed_results` and `failed_urls` become
 * per-URL errors. Pages are matched back to the URLs asked for by URL, then by order.
 */
export async function tavilyExtract(
  urls: readonly string[],
  account: TavilyAccount,
  signal: AbortSignal,
): Promise<RawPage[]> {
  const reply = await tavilyRequest("extract", { urls, include_images: false }, account, signal);
  if (!reply.ok) return urls.map((u) => pageError(u, reply.error));
  const byUrl = new Map<string, RawPage>();
  const unmatched: RawPage[] = [];
  const keep = (page: RawPage) => {
    if (urls.includes(page.url) && !byUrl.has(page.url)) byUrl.set(page.url, page);
    else unmatched.push(page);
  };
  for (const r of Array.isArray(reply.value.results) ? reply.value.results.filter(isRecord) : []) {
    const url = text(r.url);
    keep({ requestedUrl: url, url, title: text(r.title), content: text(r.raw_content) || text(r.content) });
  }
  for (const f of Array.isArray(reply.value.failed_results) ? reply.value.failed_results.filter(isRecord) : []) {
    keep(pageError(text(f.url), text(f.error) || "extraction failed"));
  }
  for (const f of Array.isArray(reply.value.failed_urls) ? reply.value.failed_urls : [])
    keep(pageError(text(f), "extraction failed"));
  return urls.map((url) => {
    const page = byUrl.get(url) ?? unmatched.shift();
    return page ? { ...page, requestedUrl: url } : pageError(url, "Extract backend returned no result for this URL");
  });
}

function errorDetail(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const detail = value.detail;
  if (typeof detail === "string") return detail;
  if (isRecord(detail) && typeof detail.error === "string") return detail.error;
  return typeof value.error === "string" ? value.error : undefined;
}

function mask(message: string, secret: string): string {
  return secret ? message.split(secret).join("***") : message;
}

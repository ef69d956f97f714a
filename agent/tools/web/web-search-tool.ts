import * as z from "zod/v4";
import type { WebSettings } from "../../config/web-settings.js";
import { threatWarning, wrapUntrusted } from "../../web/untrusted-content.js";
import type { SearchHit } from "../../web/web-results.js";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import type { ToolResult } from "../tool.js";
import { webFailure as failure, webSettingsFor } from "./web-tool-support.js";

const DEFAULT_LIMIT = 5;

/**
 * web_search(query, limit?) as upstream: the configured backend (SearXNG or Tavily here), results as
 * `{"success": true, "data": {"web": [{title, url, description, position}]}}`. Titles and snippets come from other
 * people's pages, so the result is scanned and wrapped as untrusted, like a fetched page.
 */
export const webSearchTool = defineTool({
  name: "web_search",
  toolsets: ["web", "search"],
  kind: "fetch",
  description:
    "Search the web for information. Returns up to 5 results by default with titles, URLs, and descriptions. The query is passed " +
    'through to the configured backend, so operators such as site:domain, filetype:pdf, intitle:word, -term, and "exact phrase" ' +
    "may work when the backend supports them.",
  parameters: () =>
    z.object({
      query: z
        .string()
        .describe(
          'The search query to look up on the web. You may include backend-supported operators such as site:example.com, filetype:pdf, intitle:word, -term, or "exact phrase".',
        ),
      limit: z.int().default(DEFAULT_LIMIT).describe("Maximum number of results to return. Defaults to 5."),
    }),
  describe: (args) => ({ title: `web search: ${shorten(str(args?.query))}`, locations: [] }),
  async run(args, ctx) {
    const settings = webSettingsFor(ctx);
    if ("error" in settings) return settings.error;
    return runWebSearch(args.query, args.limit, settings, ctx.signal);
  },
});

export async function runWebSearch(
  query: string,
  rawLimit: unknown,
  settings: WebSettings,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (!query.trim()) return failure("query must not be empty");
  if (!settings.search.ok) return failure(settings.search.problem);
  const limit = clampLimit(rawLimit);
  // The backends (HTTP, the URL checks) load with the first search, not with the engine.
  const [{ tavilySearch }, { searxngSearch }] = await Promise.all([
    import("../../web/tavily-backend.js"),
    import("../../web/searxng-backend.js"),
  ]);
  const outcome =
    settings.search.name === "tavily"
      ? await tavilySearch(
          query,
          limit,
          { apiKey: settings.tavilyApiKey ?? "", baseUrl: settings.tavilyBaseUrl },
          signal,
        )
      : await searxngSearch(query, limit, settings.searxngUrl ?? "", settings.searxngTimeoutMs, signal);
  if ("error" in outcome) return failure(outcome.error);
  const json = JSON.stringify({ success: true, data: { web: outcome.hits } }, null, 2);
  return { content: wrapUntrusted("web_search", json, warnings(outcome.hits)) };
}

/** Upstream: an integer from 1 to 100, 5 when missing or unreadable. */
function clampLimit(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value) : NaN;
  return Number.isFinite(n) ? Math.min(100, Math.max(1, Math.trunc(n))) : DEFAULT_LIMIT;
}

function warnings(hits: readonly SearchHit[]): string[] {
  return hits.flatMap(
    (hit) => threatWarning(`search result ${hit.position} (${hit.url})`, `${hit.title}\n${hit.description}`) ?? [],
  );
}

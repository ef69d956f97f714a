import * as z from "zod/v4";
import type { WebSettings } from "../../config/web-settings.js";
import { wrapUntrusted } from "../../web/untrusted-content.js";
import { defineTool } from "../define-tool.js";
import { shorten } from "../describe-call.js";
import type { ToolResult } from "../tool.js";
import { webFailure as failure, webSettingsFor } from "./web-tool-support.js";

/** Upstream takes at most five URLs a call (the handler slices the list). */
const MAX_URLS = 5;

/**
 * web_extract(urls) as upstream: `{"results": [{url, title, content, error}]}` with each page as Markdown, within
 * web.extract_char_limit characters (head and tail of longer pages, the full text saved for read_file), and the
 * whole result wrapped as untrusted data with the scanner's findings stated outside the page text.
 */
export const webExtractTool = defineTool({
  name: "web_extract",
  toolsets: ["web"],
  kind: "fetch",
  description:
    "Extract content from web page URLs using the configured extract backend (the plain HTTP fetcher unless Tavily is configured). " +
    "Returns page content as markdown. Pages within the char budget (default 15000) return whole; larger pages return a head+tail " +
    "window with a footer telling you the full text's saved file path and read_file call. Inline images appear as [IMAGE: alt] " +
    "placeholders; real image URLs are kept as links. Private and loopback addresses are refused.",
  parameters: () =>
    z.object({
      urls: z.array(z.string()).describe("List of URLs to extract content from (max 5 URLs per call)"),
    }),
  // Upstream: `extract: {first url}` and ` (+N)` for the others.
  describe: (args) => {
    const urls = Array.isArray(args?.urls) ? args.urls.filter((u): u is string => typeof u === "string") : [];
    return {
      title: `extract: ${shorten(urls[0] ?? "")}${urls.length > 1 ? ` (+${urls.length - 1})` : ""}`,
      locations: [],
    };
  },
  async run(args, ctx) {
    const settings = webSettingsFor(ctx);
    if ("error" in settings) return settings.error;
    const urls = Array.isArray(args.urls) ? args.urls.filter((u): u is string => typeof u === "string") : [];
    return runWebExtract(urls, settings, ctx.signal);
  },
});

export async function runWebExtract(
  urls: readonly string[],
  settings: WebSettings,
  signal: AbortSignal,
): Promise<ToolResult> {
  const wanted = urls
    .map((u) => u.trim())
    .filter(Boolean)
    .slice(0, MAX_URLS);
  if (wanted.length === 0) return failure("No URLs given: pass urls as a list of http(s) URLs (at most 5).");
  // The fetcher and the HTML converter load with the first extraction, not with the engine.
  const { extractPages } = await import("../../web/extract-pages.js");
  const outcome = await extractPages(wanted, settings, signal);
  if ("error" in outcome) return failure(outcome.error);
  const results = outcome.pages.map(({ warning: _warning, ...page }) => page);
  const json = JSON.stringify({ results }, null, 2);
  const content = wrapUntrusted(
    "web_extract",
    json,
    outcome.pages.flatMap((p) => p.warning ?? []),
  );
  // Failed only when no page came back: one dead link among good ones is a completed call that reports it.
  return outcome.pages.every((p) => p.error !== null) ? { content, isError: true } : { content };
}

import { loadWebSettings } from "../config/web-settings.js";
import { wrapUntrusted } from "../web/untrusted-content.js";
import type { Expansion } from "./reference-blocks.js";
import { type ContextReference, estimateTokens } from "./reference-parser.js";

/**
 * `🌐 raw (N tokens)` with the page as web_extract's Markdown (hermes-behaviour.md §5.2: the default fetcher is
 * web_extract). It goes through the same pipeline as the tool: the configured extract backend, the SSRF guard,
 * the byte cap and character budget, and the threat scanner, and the page is wrapped as untrusted data since it
 * lands in the user's own message, where the model would otherwise take it for the user's words.
 */
export async function urlBlock(ref: ContextReference, signal: AbortSignal, hermesHome: string): Promise<Expansion> {
  let settings;
  try {
    settings = loadWebSettings(hermesHome, process.env);
  } catch (error) {
    return { warning: `${ref.raw}: cannot read the web settings: ${(error as Error).message}` };
  }
  // The fetcher loads with the first @url, not with the engine.
  const { extractPages } = await import("../web/extract-pages.js");
  const outcome = await extractPages([ref.target], settings, signal);
  if ("error" in outcome) return { warning: `${ref.raw}: ${outcome.error}` };
  const page = outcome.pages[0]!;
  if (page.error !== null)
    return { warning: `${ref.raw}: ${page.error === "No content extracted" ? "no content extracted" : page.error}` };
  const body = wrapUntrusted("@url", page.content, page.warning ? [page.warning] : []);
  const tokens = estimateTokens(body);
  return { block: `🌐 ${ref.raw} (${tokens} tokens)\n${body}`, tokens };
}

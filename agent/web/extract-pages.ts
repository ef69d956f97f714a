import type { WebSettings } from "../config/web-settings.js";
import { plainFetchPage } from "./fetch-backend.js";
import { replaceDataImages } from "./html-to-markdown.js";
import { fitToBudget } from "./page-budget.js";
import { tavilyExtract } from "./tavily-backend.js";
import { threatWarning } from "./untrusted-content.js";
import { addressBlockReason, secretInUrlReason, urlBlockReason } from "./url-safety.js";
import { pageError, type RawPage } from "./web-results.js";

/** A page as the model gets it: within the character budget, with what the scanner found. */
export interface ExtractedPage {
  readonly url: string;
  readonly title: string;
  readonly content: string;
  readonly error: string | null;
  readonly truncated?: boolean;
  /** A line for the wrapper when the scanner flagged this page's text. */
  readonly warning?: string;
}

/**
 * web_extract's pipeline, shared with @url references: URLs are checked (secrets in the URL refuse the whole call,
 * as upstream; private addresses refuse that URL), fetched by the configured backend, cleaned of inline images,
 * fitted to the budget, and scanned as the model will see them. Results keep the order of `urls`.
 */
export async function extractPages(
  urls: readonly string[],
  settings: WebSettings,
  signal: AbortSignal,
): Promise<{ pages: ExtractedPage[] } | { error: string }> {
  if (!settings.extract.ok) return { error: settings.extract.problem };
  const backend = settings.extract.name;
  const checked: Array<{ url: string } | { page: RawPage }> = [];
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      checked.push({
        page: pageError(raw, "Invalid URL: expected an absolute http(s) URL such as https://example.com/page"),
      });
      continue;
    }
    const secret = secretInUrlReason(url);
    if (secret) return { error: secret };
    const blocked =
      urlBlockReason(url, settings.allowPrivateUrls) ??
      (backend === "tavily" ? await resolvedBlockReason(url, settings.allowPrivateUrls, signal) : undefined);
    if (signal.aborted) return { error: "Interrupted" };
    checked.push(blocked ? { page: pageError(url.href, blocked) } : { url: url.href });
  }
  if (signal.aborted) return { error: "Interrupted" };
  const toFetch = checked.flatMap((c) => ("url" in c ? [c.url] : []));
  const fetched =
    toFetch.length === 0
      ? []
      : backend === "tavily"
        ? await tavilyExtract(toFetch, { apiKey: settings.tavilyApiKey ?? "", baseUrl: settings.tavilyBaseUrl }, signal)
        : await Promise.all(
            toFetch.map((u) =>
              plainFetchPage(
                u,
                {
                  allowPrivate: settings.allowPrivateUrls,
                  timeoutMs: settings.fetchTimeoutMs,
                  maxBytes: settings.maxFetchBytes,
                },
                signal,
              ),
            ),
          );
  let next = 0;
  const pages = checked.map((c) => finish("page" in c ? c.page : fetched[next++]!, settings));
  return { pages };
}

function finish(page: RawPage, settings: WebSettings): ExtractedPage {
  if (page.error) return { url: page.url, title: page.title, content: "", error: page.error };
  const cleaned = replaceDataImages(page.content);
  if (!cleaned.trim()) return { url: page.url, title: page.title, content: "", error: "No content extracted" };
  const fitted = fitToBudget(cleaned, page.url, settings.extractCharLimit, settings.home);
  const note =
    page.cutAtBytes === undefined
      ? ""
      : `\n\n[Only the first ${page.cutAtBytes.toLocaleString("en-US")} bytes of this page were read; the rest was not downloaded.]`;
  const content = fitted.text + note;
  // The whole cleaned text is scanned, not only the head and tail shown: the middle is saved for read_file, and a
  // warning about it belongs in this result's wrapper too.
  const warning = threatWarning(page.url, `${page.title}\n${cleaned}`);
  return {
    url: page.url,
    title: page.title,
    content,
    error: null,
    truncated: fitted.truncated || note !== "",
    ...(warning ? { warning } : {}),
  };
}

/**
 * For a backend that fetches on its own servers (Tavily) the connection-time guard cannot run, so the name is resolved
 * here and every address checked, as upstream's is_safe_url does (failing closed when the name does not resolve).
 * The lookup is raced with the turn's signal: a resolver that never answers must not outlive a cancel.
 */
async function resolvedBlockReason(url: URL, allowPrivate: boolean, signal: AbortSignal): Promise<string | undefined> {
  let onAbort: (() => void) | undefined;
  try {
    const { lookup } = await import("node:dns/promises");
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(new Error("Interrupted"));
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const addresses = await Promise.race([lookup(url.hostname.replace(/^\[|\]$/g, ""), { all: true }), aborted]);
    for (const { address } of addresses) {
      const reason = addressBlockReason(address, allowPrivate);
      if (reason) return reason;
    }
    return undefined;
  } catch {
    // After a cancel the caller sees signal.aborted and stops; the reason below is never shown then.
    return `Blocked: could not resolve ${url.hostname} to check that it is a public address`;
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

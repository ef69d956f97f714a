import { htmlToMarkdown } from "./html-to-markdown.js";
import { decodeBody, fetchLimited } from "./http-fetch.js";
import { pageError, type RawPage } from "./web-results.js";

export interface PlainFetchOptions {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/**
 * The plain HTTP fetch (upstream's `local` extractor): no key, no service. HTML becomes Markdown; text, Markdown and
 * JSON pass as they are; PDFs and other binaries are refused with a pointer to a backend that reads them. Every hop
 * goes through the SSRF guard, and at most `maxBytes` of a page are read.
 */
export async function plainFetchPage(url: string, options: PlainFetchOptions, signal: AbortSignal): Promise<RawPage> {
  const started = Date.now();
  let response;
  try {
    response = await fetchLimited(url, {
      signal,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      guard: { allowPrivate: options.allowPrivate },
    });
  } catch (error) {
    return pageError(url, `Fetch failed: ${(error as Error).message}`);
  }
  if (response.status >= 400) return pageError(url, `Fetch failed: HTTP ${response.status}`);
  const contentType = String(response.headers["content-type"] ?? "").toLowerCase();
  const cut = response.truncated ? { cutAtBytes: options.maxBytes } : {};
  if (contentType.includes("pdf")) {
    return pageError(
      url,
      "The plain fetcher does not read PDFs; set web.extract_backend to tavily (TAVILY_API_KEY) for PDF extraction.",
    );
  }
  const kind = contentKind(contentType, response.body);
  if (kind === "binary")
    return pageError(
      url,
      `Not a text page (content type ${contentType || "unknown"}); the plain fetcher reads HTML and text only.`,
    );
  const body = decodeBody(response.body, contentType);
  if (kind === "text") return { requestedUrl: url, url: response.url, title: "", content: body.trim(), ...cut };
  // The conversion gets what is left of the fetch deadline (at least a second, so a page fetched at the last moment
  // still converts; at most MAX_CONVERSION_MS): a hostile page costs this turn seconds, not the server minutes.
  const deadlineMs = Math.max(1_000, options.timeoutMs - (Date.now() - started));
  let page;
  try {
    page = await htmlToMarkdown(body, { deadlineMs, signal });
  } catch (error) {
    return pageError(url, `Could not convert the page: ${(error as Error).message}`);
  }
  return { requestedUrl: url, url: response.url, title: page.title, content: page.markdown, ...cut };
}

/** HTML by type (or by a leading tag when the server named no type), other text as is, anything else binary. */
function contentKind(contentType: string, body: Buffer): "html" | "text" | "binary" {
  if (contentType.includes("html") || contentType.includes("xhtml")) return "html";
  if (contentType.startsWith("text/") || /json|xml|markdown|javascript|yaml|csv/.test(contentType)) return "text";
  if (contentType) return "binary";
  const head = body.subarray(0, 1024).toString("utf8").trimStart().toLowerCase();
  if (body.subarray(0, 4096).includes(0)) return "binary";
  return head.startsWith("<!doctype html") || head.startsWith("<html") ? "html" : "text";
}

import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { guardedLookup, urlBlockReason } from "./url-safety.js";

/** A failure the tools report to the model as it is (the message is written for a reader, not a log). */
export class WebFetchError extends Error {}

export interface FetchOptions {
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Bytes kept of the (decompressed) body; reading stops there and the connection is dropped. */
  readonly maxBytes: number;
  /**
   * Set for URLs the model chose (pages): SSRF checks on every hop. Left out for the backend the user configured
   * (a SearXNG on localhost is the usual case), as upstream does.
   */
  readonly guard?: { readonly allowPrivate: boolean };
  readonly maxRedirects?: number;
}

export interface FetchedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Where the body came from, after redirects. */
  readonly url: string;
  readonly body: Buffer;
  /** The body was longer than maxBytes and was cut there. */
  readonly truncated: boolean;
}

const USER_AGENT = "HermesAgent-editors web_extract (+https://hermes-agent.nousresearch.com)";

/**
 * One HTTP exchange with a deadline, cancellation, redirects re-checked hop by hop, and a byte cap enforced while the
 * body streams in (a 1 GB page costs 2 MB, and a compressed bomb is capped after decompression). Node's http is used
 * rather than fetch because only it lets the SSRF check run in the connection's own DNS lookup.
 */
export async function fetchLimited(url: string, options: FetchOptions): Promise<FetchedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  try {
    let current = new URL(url);
    let method = options.method ?? "GET";
    let body = options.body;
    for (let hop = 0; ; hop++) {
      if (options.guard) {
        const reason = urlBlockReason(current, options.guard.allowPrivate);
        if (reason) throw new WebFetchError(hop === 0 ? reason : `${reason} (redirected to ${current.href})`);
      } else if (current.protocol !== "http:" && current.protocol !== "https:") {
        throw new WebFetchError(`only http and https URLs can be fetched (got ${current.protocol})`);
      }
      const response = await send(current, method, body, options, signal);
      const location = response.headers.location;
      if (response.statusCode && [301, 302, 303, 307, 308].includes(response.statusCode) && location) {
        response.resume();
        if (hop >= (options.maxRedirects ?? 5))
          throw new WebFetchError(`too many redirects (more than ${options.maxRedirects ?? 5})`);
        current = new URL(location, current);
        // As browsers do: 303 always, and 301/302 after a POST, turn into a GET without a body.
        if (
          response.statusCode === 303 ||
          (method === "POST" && response.statusCode !== 307 && response.statusCode !== 308)
        ) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      const { data, truncated } = await readCapped(response, options.maxBytes, signal);
      return { status: response.statusCode ?? 0, headers: response.headers, url: current.href, body: data, truncated };
    }
  } catch (error) {
    if (error instanceof WebFetchError) throw error;
    if (options.signal.aborted) throw new WebFetchError("cancelled");
    if (deadline.aborted) throw new WebFetchError(`timed out after ${seconds} s`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EHERMESBLOCKED") throw new WebFetchError((error as Error).message);
    throw new WebFetchError(describeNetworkError(error as NodeJS.ErrnoException));
  }
}

// http, https and zlib are loaded at the first fetch: every session/new loads this module, few sessions fetch.
async function send(
  url: URL,
  method: string,
  body: string | undefined,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { request } = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  const headers: Record<string, string> = {
    "user-agent": USER_AGENT,
    accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
    "accept-encoding": "gzip, deflate, br",
    ...options.headers,
  };
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    // A guarded request gets a connection of its own (agent: false): a pooled keep-alive socket opened earlier by an
    // unguarded call (the user's SearXNG on localhost) would be reused without the guarded lookup ever running.
    const guard = options.guard ? { lookup: guardedLookup(options.guard.allowPrivate), agent: false as const } : {};
    const req = request(url, { method, headers, signal, ...guard }, resolve);
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Reads the body, decompressed, until `maxBytes`; then drops the connection instead of draining the rest. The
 * decoder is joined with stream.pipeline, not pipe(): pipe neither ends nor destroys the decoder when the response
 * errors or is cut off, so the read would wait forever. The signal (deadline or cancel) destroys both streams too.
 */
async function readCapped(
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ data: Buffer; truncated: boolean }> {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const zlib = ["gzip", "x-gzip", "deflate", "br"].includes(encoding) ? await import("node:zlib") : undefined;
  const decoder = !zlib
    ? undefined
    : encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : zlib.createBrotliDecompress();
  const { pipeline } = decoder ? await import("node:stream") : { pipeline: undefined };
  // pipeline's callback sees the failure; the loop below sees the same error thrown by the destroyed decoder.
  const stream: Readable = decoder && pipeline ? pipeline(response, decoder, () => undefined) : response;
  const stop = () => {
    response.destroy(signal.reason as Error);
    decoder?.destroy(signal.reason as Error);
  };
  if (signal.aborted) stop();
  signal.addEventListener("abort", stop, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } finally {
    signal.removeEventListener("abort", stop);
    // Leaving the loop early (the cap) or failing must not leave a socket streaming into nothing.
    if (truncated || !response.complete) response.destroy();
    decoder?.destroy();
  }
  return { data: Buffer.concat(chunks, size), truncated };
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `could not resolve the host name (${error.message})`;
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "the connection was reset by the server";
    case "Z_DATA_ERROR":
    case "Z_BUF_ERROR":
      return "the server sent a body that could not be decompressed";
    default:
      return error.message || String(error);
  }
}

/** The body as text in the charset the server named (UTF-8 when it named none or one Node does not know). */
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

import type { RuntimeProvider } from "../config/runtime-provider.js";

export type ProviderFailureKind =
  | "auth"
  | "not_found"
  | "rate_limit"
  | "server"
  | "network"
  | "timeout"
  | "bad_request"
  | "unsupported"
  | "aborted";

/** A failed model call, classified so that the loop can retry, fall back or explain it. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

interface SdkErrorShape {
  name?: string;
  status?: number;
  message?: string;
  headers?: { get?(name: string): string | null } | Record<string, string>;
  error?: { message?: string; error?: { message?: string } };
}

/**
 * Classifies whatever an LLM SDK (openai, @anthropic-ai/sdk) or fetch threw. Both SDKs name their error classes
 * alike (APIUserAbortError, APIConnectionTimeoutError, APIConnectionError, APIError with `status`), so one
 * duck-typed mapping serves both without importing either.
 */
export function toProviderError(error: unknown, signal?: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = (error ?? {}) as SdkErrorShape;
  if (signal?.aborted || e.name === "APIUserAbortError" || e.name === "AbortError") {
    return new ProviderError("aborted", "The request was cancelled.");
  }
  if (e.name === "APIConnectionTimeoutError") return new ProviderError("timeout", "The request timed out.");
  const detail = serverDetail(e);
  if (typeof e.status === "number") {
    const status = e.status;
    const kind: ProviderFailureKind =
      status === 401 || status === 403
        ? "auth"
        : status === 404
          ? "not_found"
          : status === 429
            ? "rate_limit"
            : status >= 500
              ? "server"
              : status === 408
                ? "timeout"
                : "bad_request";
    return new ProviderError(kind, detail, status, retryAfterMs(e.headers));
  }
  if (e.name === "APIConnectionError" || isNetworkError(error)) return new ProviderError("network", detail);
  return new ProviderError("network", detail);
}

/** A message a user can act on: what failed, at which provider, and what to change. Never contains a key. */
export function describeProviderError(error: ProviderError, runtime: RuntimeProvider): string {
  const who = `${runtime.providerLabel} (${runtime.baseUrl})`;
  const detail = error.message ? ` The provider said: ${error.message}` : "";
  switch (error.kind) {
    case "auth": {
      const where = runtime.keySource ? `the key from ${runtime.keySource}` : "no API key";
      return `${who} refused the request with HTTP ${error.status}: check ${runtime.keyVariables.join(" or ") || "model.api_key"} (the request used ${where}).${detail}`;
    }
    case "not_found":
      return `${who} answered HTTP 404 for model '${runtime.model}': check model.default and model.base_url in config.yaml.${detail}`;
    case "rate_limit":
      return `${who} is rate-limiting requests (HTTP 429). Wait a moment and try again.${detail}`;
    case "server":
      return `${who} had a server error (HTTP ${error.status}). Try again shortly.${detail}`;
    case "timeout":
      return `${who} did not answer in time. Check the endpoint and try again.`;
    case "network":
      return `Could not reach ${who}: ${error.message}. Check model.base_url and your network.`;
    case "bad_request":
      return `${who} rejected the request (HTTP ${error.status}).${detail}`;
    case "unsupported":
      return error.message;
    case "aborted":
      return "The request was cancelled.";
  }
}

function serverDetail(e: SdkErrorShape): string {
  const nested = e.error?.error?.message ?? e.error?.message;
  const text = (nested ?? e.message ?? "").trim();
  // SDK messages start with the status ("401 Invalid key"); the status is reported separately.
  return text.replace(/^\d{3}\s+/, "").slice(0, 500);
}

function retryAfterMs(headers: SdkErrorShape["headers"]): number | undefined {
  if (!headers) return undefined;
  const raw =
    typeof (headers as { get?: unknown }).get === "function"
      ? (headers as { get(name: string): string | null }).get("retry-after")
      : (headers as Record<string, string>)["retry-after"];
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isNetworkError(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return (
    typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|UND_ERR)/.test(code)
  );
}

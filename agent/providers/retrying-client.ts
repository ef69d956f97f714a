import type { RuntimeProvider } from "../config/runtime-provider.js";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "./model-client.js";
import { describeProviderError, ProviderError, toProviderError } from "./provider-error.js";

export interface RetryNotice {
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: ProviderError;
}

export interface RetryOptions {
  /** Retries after the first try (default 3). */
  readonly maxRetries?: number;
  /** Backoff before retry n is uniform in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))] ("full jitter"). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** A server's Retry-After is honoured up to this long (default 60 s); longer waits are not worth blocking a turn. */
  readonly maxRetryAfterMs?: number;
  /** Injectable for tests: [0, 1). */
  readonly random?: () => number;
  /** Injectable for tests; must reject promptly when `signal` aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly onRetry?: (notice: RetryNotice) => void;
}

export const DEFAULT_RETRY_OPTIONS = {
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
} as const;

/** Rate limits, server errors, timeouts and dropped connections pass; auth, bad requests and cancellation do not. */
export function isRetryable(error: ProviderError): boolean {
  return error.kind === "rate_limit" || error.kind === "server" || error.kind === "network" || error.kind === "timeout";
}

/** How long to wait before retry number `attempt` (1-based). */
export function retryDelayMs(error: ProviderError, attempt: number, options: RetryOptions = {}): number {
  if (error.retryAfterMs !== undefined)
    return Math.min(error.retryAfterMs, options.maxRetryAfterMs ?? DEFAULT_RETRY_OPTIONS.maxRetryAfterMs);
  const base = options.baseDelayMs ?? DEFAULT_RETRY_OPTIONS.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULT_RETRY_OPTIONS.maxDelayMs;
  const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

/**
 * Retries a client's failed calls with exponential backoff, but only while the failed call has yielded nothing:
 * once text has streamed to the user, starting over would show it twice, so a later failure is final.
 */
export function withRetries(client: ModelClient, options: RetryOptions = {}): ModelClient {
  const maxRetries = options.maxRetries ?? DEFAULT_RETRY_OPTIONS.maxRetries;
  const sleep = options.sleep ?? abortableSleep;
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      for (let attempt = 1; ; attempt++) {
        let yielded = false;
        try {
          for await (const event of client.stream(request, signal)) {
            yielded = true;
            yield event;
          }
          return;
        } catch (error) {
          const failure = toProviderError(error, signal);
          if (yielded || signal.aborted || !isRetryable(failure) || attempt > maxRetries) throw failure;
          const delayMs = retryDelayMs(failure, attempt, options);
          options.onRetry?.({ attempt, delayMs, error: failure });
          await sleep(delayMs, signal);
        }
      }
    },
  };
}

export interface FallbackTarget {
  readonly client: ModelClient;
  readonly runtime: RuntimeProvider;
}

export interface FallbackOptions {
  readonly onFallback?: (from: RuntimeProvider, to: RuntimeProvider, error: ProviderError) => void;
}

/**
 * `fallback_providers`: when a target fails before yielding anything (its retries, if any, spent), the next one
 * answers the same request with its own model. What failed after output began is final, for the reason above.
 * When every target fails, the primary's error is thrown (it is the configuration the user chose), with what each
 * fallback said appended, worded with that fallback's own provider name and key variable.
 */
export function withFallbacks(
  primary: FallbackTarget,
  fallbacks: readonly FallbackTarget[],
  options: FallbackOptions = {},
): ModelClient {
  if (fallbacks.length === 0) return primary.client;
  const chain = [primary, ...fallbacks];
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      const failures: ProviderError[] = [];
      for (const [position, target] of chain.entries()) {
        const attempt = position === 0 ? request : { ...request, model: target.runtime.model };
        let yielded = false;
        try {
          for await (const event of target.client.stream(attempt, signal)) {
            yielded = true;
            yield event;
          }
          return;
        } catch (error) {
          const failure = toProviderError(error, signal);
          if (failure.kind === "aborted" || signal.aborted) throw failure;
          if (yielded) throw position === 0 ? failure : attributed(failure, target.runtime);
          failures.push(failure);
          const next = chain[position + 1];
          if (next) options.onFallback?.(target.runtime, next.runtime, failure);
        }
      }
      throw combined(failures, fallbacks);
    },
  };
}

function attributed(failure: ProviderError, runtime: RuntimeProvider): ProviderError {
  return new ProviderError(
    failure.kind,
    `(from fallback ${runtime.providerLabel}, model ${runtime.model}) ${failure.message}`,
    failure.status,
    failure.retryAfterMs,
  );
}

function combined(failures: readonly ProviderError[], fallbacks: readonly FallbackTarget[]): ProviderError {
  const [first, ...rest] = failures;
  const notes = rest.map(
    (failure, i) => `Fallback ${i + 1} failed too: ${describeProviderError(failure, fallbacks[i]!.runtime)}`,
  );
  const message = [first!.message, ...notes].filter(Boolean).join(" ");
  return new ProviderError(first!.kind, message, first!.status, first!.retryAfterMs);
}

/** setTimeout that rejects with an `aborted` ProviderError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => new ProviderError("aborted", "The request was cancelled.");
    if (signal.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

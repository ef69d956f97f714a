/**
 * Anthropic prompt caching as upstream Hermes does it ("system_and_3"): a breakpoint on the system prompt and on the
 * last messages, at most 4 in all (the API's limit). The system breakpoint caches tools + system, which never change
 * within a session; the rolling breakpoints on the newest messages let each request reuse the previous one's prefix.
 *
 * Applied to the Anthropic wire request (after tool results were merged into user messages), so each breakpoint
 * falls on a distinct message. Pure: the inputs are never modified.
 */

export type CacheTtl = "5m" | "1h";

export interface CacheControl {
  readonly type: "ephemeral";
  readonly ttl?: "1h";
}

/** Any Anthropic content block: only its ability to carry `cache_control` matters here. */
export interface CacheableBlock {
  readonly type: string;
  readonly cache_control?: CacheControl;
}

export interface CacheableTextBlock extends CacheableBlock {
  readonly type: "text";
  readonly text: string;
}

export interface CacheableMessage<B extends CacheableBlock> {
  readonly role: "user" | "assistant";
  readonly content: string | readonly B[];
}

export interface CachedRequest<B extends CacheableBlock> {
  readonly system: readonly B[];
  readonly messages: ReadonlyArray<CacheableMessage<B | CacheableTextBlock>>;
}

/** The Anthropic API rejects a request with more than 4 cache_control markers. */
export const MAX_CACHE_BREAKPOINTS = 4;

export function cacheMarker(ttl: CacheTtl = "5m"): CacheControl {
  // "5m" is the API default and is sent without a ttl, as upstream does.
  return ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Marks the last system block and then the newest messages that can carry a marker, newest first, until 4
 * breakpoints are used (so 3 messages with a system prompt, 4 without). String content becomes one text block so it
 * can carry the marker; a message without content cannot carry one and is passed over.
 */
export function applySystemAndThree<B extends CacheableBlock>(
  system: readonly B[],
  messages: ReadonlyArray<CacheableMessage<B>>,
  ttl: CacheTtl = "5m",
): CachedRequest<B> {
  const marker = cacheMarker(ttl);
  let used = 0;
  const markedSystem = system.length > 0 ? markLast(system, marker) : system;
  if (system.length > 0) used++;
  const out: Array<CacheableMessage<B | CacheableTextBlock>> = messages.slice();
  for (let i = out.length - 1; i >= 0 && used < MAX_CACHE_BREAKPOINTS; i--) {
    const message = out[i]!;
    const content = message.content;
    if (typeof content === "string") {
      if (!content) continue;
      out[i] = { role: message.role, content: [{ type: "text", text: content, cache_control: marker }] };
    } else {
      if (content.length === 0) continue;
      out[i] = { role: message.role, content: markLast(content, marker) };
    }
    used++;
  }
  return { system: markedSystem, messages: out };
}

function markLast<T extends CacheableBlock>(blocks: readonly T[], marker: CacheControl): T[] {
  const copy = blocks.slice();
  copy[copy.length - 1] = { ...copy[copy.length - 1]!, cache_control: marker };
  return copy;
}

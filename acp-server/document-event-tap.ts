import { Transform, type TransformCallback } from "node:stream";

const NEWLINE = 0x0a;
// Only lines holding this are parsed here; everything else streams through untouched.
const MARKER = Buffer.from('"document/did');

/**
 * Takes ACP document notifications off the incoming byte stream before the SDK sees them, and passes every other
 * byte through unchanged. Why: editors send `document/didFocus` on every editor switch and cursor move, and the SDK
 * spends several microseconds on each message (a web-stream hop and an awaited handler chain), so 10,000 of them
 * would hold a prompt queued behind them by ~50 ms or more; here each costs one JSON.parse and a map lookup.
 *
 * `handle(method, params)` applies the event and returns true, or returns false to leave the line to the SDK
 * (document events this server does not handle, which the SDK then ignores). A line split across chunks is held
 * until it is complete, so document events are applied in the order they were sent, and the lines the SDK receives
 * keep theirs. A handled event may be applied a moment before requests that preceded it in the same chunk are
 * dispatched; document events only queue state for the next turn, so that is harmless.
 */
export class DocumentEventTap extends Transform {
  /** The start of a line the previous chunks did not finish. */
  private carried: Buffer[] = [];

  constructor(private readonly handle: (method: string, params: unknown) => boolean) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let lineStart = 0;
    if (this.carried.length > 0) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        this.carried.push(chunk);
        return done();
      }
      const pieces = [...this.carried, chunk.subarray(0, end + 1)];
      this.carried = [];
      if (!this.took(Buffer.concat(pieces))) for (const piece of pieces) this.push(piece);
      lineStart = end + 1;
    }
    let passFrom = lineStart;
    for (let end = chunk.indexOf(NEWLINE, lineStart); end !== -1; lineStart = end + 1, end = chunk.indexOf(NEWLINE, lineStart)) {
      if (!this.took(chunk.subarray(lineStart, end))) continue;
      if (lineStart > passFrom) this.push(chunk.subarray(passFrom, lineStart));
      passFrom = end + 1;
    }
    if (lineStart > passFrom) this.push(chunk.subarray(passFrom, lineStart));
    if (lineStart < chunk.length) this.carried.push(chunk.subarray(lineStart));
    done();
  }

  /** An unterminated last line goes to the SDK as it is (it decides what a line without a newline means). */
  override _flush(done: TransformCallback): void {
    for (const piece of this.carried.splice(0)) this.push(piece);
    done();
  }

  /** Whether `line` was a document notification this server handled. */
  private took(line: Buffer): boolean {
    if (line.indexOf(MARKER) === -1) return false;
    let message: unknown;
    try {
      message = JSON.parse(line.toString("utf8"));
    } catch {
      return false; // the SDK answers a parse error
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) return false;
    const { jsonrpc, id, method, params } = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    // Requests (anything with an id) always go to the SDK: they need its answer.
    if (jsonrpc !== "2.0" || id !== undefined || typeof method !== "string") return false;
    return this.handle(method, params);
  }
}

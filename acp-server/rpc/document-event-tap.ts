import { Transform, type TransformCallback } from "node:stream";
import { readJsonRpcHead } from "./jsonrpc-head.js";

const NEWLINE = 0x0a;
// Only lines holding this are parsed here; everything else streams through untouched.
const MARKER = Buffer.from('"document/did');
// An oversized line's id is looked for in its first bytes only (`{"jsonrpc":"2.0","id":7,"method":…` in practice).
const HEAD_BYTES = 16 * 1024;

/**
 * What happens to an incoming line longer than the cap: the line is dropped, and an error goes back for it.
 * - `reply` writes a JSON-RPC message to the client (the answer to an oversized request, or an error with id null
 *   when no id can be read);
 * - an oversized response to one of our requests (an editor's huge fs/read_text_file result) is replaced, for the
 *   SDK, by an error response with the same id, so the request fails at once instead of waiting for a timeout.
 */
export interface LineCap {
  /** The most bytes a line may have (newline excluded). */
  readonly maxLineBytes: number;
  readonly reply: (message: OversizedReply) => void;
  readonly log?: (text: string) => void;
}

export interface OversizedReply {
  readonly jsonrpc: "2.0";
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string };
}

const INVALID_REQUEST = -32600;

/**
 * Takes ACP document notifications off the incoming byte stream before the SDK sees them, passes every other
 * byte through unchanged, and drops lines over the cap. Why the tap: editors send `document/didFocus` on every
 * editor switch and cursor move, and the SDK spends several microseconds on each message (a web-stream hop and an
 * awaited handler chain), so 10,000 of them would hold a prompt queued behind them by ~50 ms or more; here each
 * costs one JSON.parse and a map lookup. Why the cap here: this is where partial lines are held, so this is where
 * memory must stop growing (a 400 MB line without a newline), and a line over the SDK's own limit makes it close
 * the stream for good; dropped here, the next line is served as usual.
 *
 * `handle(method, params)` applies the event and returns true, or returns false to leave the line to the SDK
 * (document events this server does not handle, which the SDK then ignores). A line split across chunks is held
 * until it is complete, so document events are applied in the order they were sent, and the lines the SDK receives
 * keep theirs. A handled event may be applied a moment before requests that preceded it in the same chunk are
 * dispatched; document events only queue state for the next turn, so that is harmless.
 */
export class DocumentEventTap extends Transform {
  /** The start of a line the previous chunks did not finish (never more than the cap). */
  private carried: Buffer[] = [];
  private carriedBytes = 0;
  /** Set while the rest of an oversized line is being skipped: its bytes so far. */
  private skipping: number | undefined;

  constructor(
    private readonly handle: (method: string, params: unknown) => boolean,
    private readonly cap: LineCap = { maxLineBytes: Number.MAX_SAFE_INTEGER, reply: () => {} },
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let lineStart = 0;
    if (this.skipping !== undefined) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        this.skipping += chunk.length;
        return done();
      }
      this.endSkip(this.skipping + end);
      lineStart = end + 1;
    } else if (this.carried.length > 0) {
      const end = chunk.indexOf(NEWLINE);
      const length = this.carriedBytes + (end === -1 ? chunk.length : end);
      if (length > this.cap.maxLineBytes) {
        this.startSkip([...this.carried, chunk], length);
        this.carried = [];
        this.carriedBytes = 0;
        if (end === -1) return done();
        this.endSkip(length);
      } else if (end === -1) {
        this.carry(chunk);
        return done();
      } else {
        const pieces = [...this.carried, chunk.subarray(0, end + 1)];
        this.carried = [];
        this.carriedBytes = 0;
        if (!this.took(Buffer.concat(pieces))) for (const piece of pieces) this.push(piece);
      }
      lineStart = end + 1;
    }
    let passFrom = lineStart;
    for (
      let end = chunk.indexOf(NEWLINE, lineStart);
      end !== -1;
      lineStart = end + 1, end = chunk.indexOf(NEWLINE, lineStart)
    ) {
      const oversized = end - lineStart > this.cap.maxLineBytes;
      if (!oversized && !this.took(chunk.subarray(lineStart, end))) continue;
      if (lineStart > passFrom) this.push(chunk.subarray(passFrom, lineStart));
      if (oversized) {
        this.startSkip([chunk.subarray(lineStart, end)], end - lineStart);
        this.endSkip(end - lineStart);
      }
      passFrom = end + 1;
    }
    if (lineStart > passFrom) this.push(chunk.subarray(passFrom, lineStart));
    if (lineStart < chunk.length) {
      const tail = chunk.subarray(lineStart);
      if (tail.length > this.cap.maxLineBytes) this.startSkip([tail], tail.length);
      else this.carry(tail);
    }
    done();
  }

  /** An unterminated last line goes to the SDK as it is (it decides what a line without a newline means). */
  override _flush(done: TransformCallback): void {
    for (const piece of this.carried.splice(0)) this.push(piece);
    this.carriedBytes = 0;
    done();
  }

  private carry(piece: Buffer): void {
    this.carried.push(piece);
    this.carriedBytes += piece.length;
  }

  /**
   * A line went over the cap: its bytes are let go (only its head is kept, to find an id) and it is answered now,
   * before its end arrives (which may be never): a request gets its error reply, a response to one of ours is
   * turned into an error response for the SDK.
   */
  private startSkip(pieces: readonly Buffer[], bytes: number): void {
    this.skipping = bytes;
    const head = Buffer.concat(
      pieces,
      Math.min(
        HEAD_BYTES,
        pieces.reduce((n, p) => n + p.length, 0),
      ),
    ).toString("utf8");
    const { id, method, answer } = readJsonRpcHead(head);
    const limit = `the ${this.cap.maxLineBytes.toLocaleString("en-US")}-byte limit for one message`;
    this.cap.log?.(
      `dropped an incoming message over ${limit}${method ? ` (${method})` : ""}${id !== undefined ? ` id ${JSON.stringify(id)}` : ""}`,
    );
    if (id !== undefined && id !== null && method === undefined && answer) {
      const error = { code: INVALID_REQUEST, message: `The client's reply exceeded ${limit} and was dropped.` };
      this.push(Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`));
      return;
    }
    if (method !== undefined && id === undefined) return; // a notification, as far as can be read: no reply is due
    const message = `Message dropped: it exceeds ${limit}${method ? ` (${method})` : ""}. Send smaller messages (fewer or smaller images, smaller files).`;
    this.cap.reply({ jsonrpc: "2.0", id: id ?? null, error: { code: INVALID_REQUEST, message } });
  }

  /** The oversized line ended (its newline arrived): what follows is served as usual. */
  private endSkip(bytes: number): void {
    this.cap.log?.(`the dropped message was ${bytes.toLocaleString("en-US")} bytes`);
    this.skipping = undefined;
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
    const { jsonrpc, id, method, params } = message as {
      jsonrpc?: unknown;
      id?: unknown;
      method?: unknown;
      params?: unknown;
    };
    // Requests (anything with an id) always go to the SDK: they need its answer.
    if (jsonrpc !== "2.0" || id !== undefined || typeof method !== "string") return false;
    return this.handle(method, params);
  }
}

/**
 * The `session/prompt` requests of one session, taken one at a time.
 *
 * Upstream answers a prompt that arrives while a turn runs at once ("Queued for the next turn. (n queued)",
 * stop reason end_turn) and runs it later inside the running request, echoed as a `user_message_chunk`. In ACP
 * every `session/prompt` is a request whose response carries the stop reason of *its* turn, and the updates of a
 * turn belong between the request and its response; answering end_turn for a turn that has not run would tell the
 * client it is over before it began, and its updates would arrive under another request. So here the second
 * request waits: it starts when the one before it has answered, streams its own updates, and gets its own
 * response. `session/cancel` means "stop": it cancels the running turn and every prompt still waiting (they answer
 * `cancelled` without running); a prompt sent after the cancel is not affected. `$/cancel_request` on a waiting
 * prompt withdraws only that one.
 *
 * `/queue <text>` keeps upstream's meaning: the text runs after the next model turn, inside that turn's request,
 * echoed as the user's message, so a client that cannot send while a turn runs can still line up work.
 */
export class PromptQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly slots = new Set<PromptSlot>();
  private readonly texts: string[] = [];

  /** Takes a place in line; the slot's `turn` settles when it may run (or was cancelled first). */
  join(): PromptSlot {
    const previous = this.tail;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    // A cancelled slot leaves at once, but the next one still waits for the slot before it.
    this.tail = previous.then(() => finished);
    const slot = new PromptSlot(previous, () => {
      this.slots.delete(slot);
      done();
    });
    this.slots.add(slot);
    return slot;
  }

  /**
   * Whether a prompt runs or waits: an update sent now would arrive among its turn's updates. A prompt that has
   * answered no longer counts, though it keeps its place until its response is on the wire (see `answered`).
   */
  get busy(): boolean {
    for (const slot of this.slots) if (!slot.answered) return true;
    return false;
  }

  /** `session/cancel`: the running prompt and every waiting one, and the texts lined up with /queue. */
  cancelAll(): void {
    for (const slot of this.slots) slot.cancel();
    this.texts.length = 0;
  }

  /** `/queue <text>`: how many texts are now waiting. */
  queueText(text: string): number {
    this.texts.push(text);
    return this.texts.length;
  }

  /**
   * The next text lined up with /queue, once. A pull rather than an event: the request whose turn it is drains the
   * queue one text after each model turn, and only it knows when the next may start.
   */
  takeQueuedText(): string | undefined {
    return this.texts.shift();
  }
}

export class PromptSlot {
  private readonly controller = new AbortController();
  private state: "waiting" | "active" | "done" = "waiting";
  /** Its response is ready: it still holds its place (the next one must not start before the response is written). */
  answered = false;
  /** True when the prompt may run; false when it was cancelled before its turn came. */
  readonly turn: Promise<boolean>;

  constructor(
    previous: Promise<void>,
    private readonly release: () => void,
  ) {
    this.turn = new Promise<boolean>((resolve) => {
      const onCancel = () => resolve(false);
      this.controller.signal.addEventListener("abort", onCancel, { once: true });
      void previous.then(() => {
        this.controller.signal.removeEventListener("abort", onCancel);
        if (this.controller.signal.aborted) return resolve(false);
        this.state = "active";
        resolve(true);
      });
    }).then((go) => {
      if (!go) this.leave();
      return go;
    });
  }

  /** Whether this prompt is the one running now. */
  get active(): boolean {
    return this.state === "active";
  }

  /** Aborted when this prompt is cancelled: a running prompt checks it before it starts its model turn. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.controller.abort();
  }

  /** Lets the next prompt run; call once this prompt's response is ready. */
  leave(): void {
    if (this.state === "done") return;
    this.state = "done";
    this.release();
  }
}

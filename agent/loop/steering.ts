import { STEER_MARKER_CLOSE, STEER_MARKER_OPEN } from "../prompt/guidance.js";

/**
 * Guidance the user sends while a turn runs (`/steer`). It is not queued behind the turn: the next batch of tool
 * results the model reads carries it at its end, in upstream's marker. Several steers before that batch are joined
 * with newlines, as upstream. A turn that ends without another tool call leaves them undelivered: the caller sends
 * them on as the next prompt (upstream delivers them as the next user input).
 */
export class SteerInbox {
  private readonly pending: string[] = [];

  add(text: string): void {
    this.pending.push(text);
  }

  /** Everything waiting, joined, once; undefined when nothing waits. */
  take(): string | undefined {
    if (this.pending.length === 0) return undefined;
    return this.pending.splice(0).join("\n");
  }

  /** What the turn did not deliver, one entry per steer, and the inbox emptied. */
  drain(): string[] {
    return this.pending.splice(0);
  }
}

/** A tool result with the user's mid-turn message after it, in the marker the system prompt explains. */
export function withSteer(toolOutput: string, steer: string): string {
  return `${toolOutput}\n\n${STEER_MARKER_OPEN}\n${steer}\n${STEER_MARKER_CLOSE}`;
}

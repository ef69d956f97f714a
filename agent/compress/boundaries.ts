import type { ChatMessage } from "../providers/messages.js";
import { isSummaryMessage } from "./summary-prompt.js";
import { isTodoSnapshotMessage } from "./todo-snapshot.js";
import { estimateMessageTokens } from "./token-estimate.js";

export interface BoundaryOptions {
  /** Tokens the verbatim tail aims for (threshold tokens × target_ratio); it may grow to 1.5× this. */
  readonly tailTokenBudget: number;
  /** `compression.protect_last_n`: the tail keeps at least max(3, min(this, 8)) messages. */
  readonly protectLastN: number;
}

/**
 * Where the history is cut: messages[0, headEnd) stay verbatim at the start, messages[tailStart, n) stay verbatim at
 * the end, and the middle between them is summarised. Both cuts fall before a user or assistant message, never
 * inside an assistant's tool calls and their results.
 */
export interface Boundaries {
  readonly headEnd: number;
  readonly tailStart: number;
  /**
   * The last user message, when it lies in the middle and pulling the tail back to it would keep too much (a long
   * agentic run after one request). It must not vanish into the summary (upstream #10896: the model then ignores
   * the request), so the compressor carries it verbatim to just after the summary, before the tail.
   */
  readonly carriedUser?: number;
}

/** A tail larger than this many budgets would leave the compressed history near the trigger again. */
const TAIL_CAP_BUDGETS = 3;

/** The protected head: the first exchange (first user message, the reply, and that reply's tool results). */
export function headEndOf(messages: readonly ChatMessage[]): number {
  let i = 0;
  if (messages[i]?.role === "user") i++;
  if (messages[i]?.role === "assistant") {
    i++;
    while (messages[i]?.role === "tool") i++;
  }
  return i;
}

/**
 * Phases 2 and 3 of compression, pure: the head, then the tail walked backwards from the end by token budget (soft
 * ceiling 1.5× the budget, at least the message floor), moved so no tool-call group is split, and so the last user
 * message is kept. The tail never reaches back into the head or into an earlier compaction summary.
 */
export function findBoundaries(messages: readonly ChatMessage[], options: BoundaryOptions): Boundaries {
  const n = messages.length;
  const headEnd = headEndOf(messages);
  const lowest = Math.max(headEnd, lastIndexWhere(messages, 0, isSummaryMessage) + 1);
  if (lowest >= n) return { headEnd, tailStart: n };

  // suffix[i] = tokens of messages[i, n).
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + estimateMessageTokens(messages[i]!);
  const floorCount = Math.min(Math.max(3, Math.min(options.protectLastN, 8)), n - lowest);
  const ceiling = Math.floor(options.tailTokenBudget * 1.5);
  const cap = options.tailTokenBudget * TAIL_CAP_BUDGETS;

  let cut = n;
  while (cut > lowest) {
    if (n - cut >= floorCount && suffix[cut - 1]! > ceiling) break;
    cut--;
  }
  cut = alignToGroup(messages, cut, lowest, (i) => suffix[i]! > cap);

  // The task list re-injected after an earlier compression is ours, not the user's latest request.
  const lastUser = lastIndexWhere(
    messages,
    lowest,
    (m) => m.role === "user" && !isSummaryMessage(m) && !isTodoSnapshotMessage(m),
  );
  if (lastUser >= 0 && lastUser < cut) {
    // Anchoring keeps the order intact, so prefer it while it still leaves something to summarise and a tail
    // that compression can afford.
    if (lastUser > lowest && suffix[lastUser]! <= cap) return { headEnd, tailStart: lastUser };
    return { headEnd, tailStart: cut, carriedUser: lastUser };
  }
  return { headEnd, tailStart: cut };
}

/**
 * A cut that lands on a tool result moves back to the assistant that made the calls, so the whole group stays in
 * the tail. When that tail would be too big (one huge batch of parallel calls), it moves forward past the group
 * instead, so the group is summarised whole; but never to the very end, since the newest results must stay.
 */
function alignToGroup(
  messages: readonly ChatMessage[],
  cut: number,
  lowest: number,
  tooBig: (i: number) => boolean,
): number {
  if (cut >= messages.length || messages[cut]!.role !== "tool") return cut;
  let back = cut;
  while (back > lowest && messages[back]!.role === "tool") back--;
  let forward = cut;
  while (forward < messages.length && messages[forward]!.role === "tool") forward++;
  const backIsClean = messages[back]!.role !== "tool";
  if (backIsClean && !(tooBig(back) && forward < messages.length)) return back;
  return forward < messages.length || !backIsClean ? forward : back;
}

function lastIndexWhere(messages: readonly ChatMessage[], from: number, test: (m: ChatMessage) => boolean): number {
  for (let i = messages.length - 1; i >= from; i--) if (test(messages[i]!)) return i;
  return -1;
}

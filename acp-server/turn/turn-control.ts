import type { ChatMessage, Conversation } from "../../agent/index.js";
import type { AcpSession } from "../session/acp-session.js";
import { offerRestoreOfTurns, type SlashCommandIo } from "./rollback-command.js";

/** What `/undo` or `/retry` took out of the conversation. */
export interface UndoneExchanges {
  /** How many exchanges (a user message and everything after it up to the next) were removed. */
  readonly count: number;
  /** The turn number of the first one removed (turns are numbered by the user messages the history holds). */
  readonly firstTurn: number;
  /** The first removed exchange's user message, as the model received it. */
  readonly firstMessage: ChatMessage & { role: "user" };
}

/**
 * Cuts the last `count` exchanges from the history (all of them when it holds fewer). Undefined when the history
 * has none. Upstream's /undo: the model never sees them again, and the saved session loses them too.
 */
export function dropLastExchanges(conversation: Conversation, count: number): UndoneExchanges | undefined {
  const messages = conversation.messages;
  const starts = messages.flatMap((m, i) => (m.role === "user" ? [i] : []));
  if (starts.length === 0) return undefined;
  const removed = Math.min(count, starts.length);
  const cut = starts[starts.length - removed]!;
  const firstMessage = messages[cut] as ChatMessage & { role: "user" };
  conversation.restore(messages.slice(0, cut));
  return { count: removed, firstTurn: starts.length - removed + 1, firstMessage };
}

const UNDO_USAGE = "Usage: /undo [N] (N: how many of the last exchanges to take back, 1 when left out)";

/**
 * `/undo [N]`: the last N exchanges leave the conversation (and the saved session); when those turns changed files,
 * the user is offered the restore of the workspace to before them, with the list of files, as `/rollback` asks.
 */
export async function undoCommand(session: AcpSession, args: string, io: SlashCommandIo): Promise<string> {
  const count = args ? Number(args) : 1;
  if (!Number.isInteger(count) || count < 1) return UNDO_USAGE;
  const undone = await session.editHistory((c) => dropLastExchanges(c, count));
  if (!undone) return "Nothing to undo: the conversation is empty.";
  const what =
    undone.count === 1
      ? `the last exchange ("${preview(undone.firstMessage.content)}")`
      : `the last ${undone.count} exchanges (from "${preview(undone.firstMessage.content)}")`;
  const restored = await offerRestoreOfTurns(session, undone.firstTurn, io);
  return [`Took ${what} out of the conversation.`, restored ?? "Those turns changed no files."].join("\n");
}

/** `/retry`'s first step: the last exchange out of the conversation; its user message runs again. */
export function takeLastExchangeForRetry(session: AcpSession): Promise<UndoneExchanges | undefined> {
  return session.editHistory((c) => dropLastExchanges(c, 1));
}

/** `/steer <text>` answered at once while a turn runs (upstream's reply). */
export function steerCommand(session: AcpSession, args: string): string {
  if (!args) return "Usage: /steer <guidance for the active turn>";
  if (session.steer(args)) return `⏩ Steer queued for the active turn: ${preview(args, 80)}`;
  // The turn had not started or just ended: the text still reaches the model, as the next prompt.
  return `No turn is running: queued for the next turn. (${session.prompts.queueText(args)} queued)`;
}

/** The words of `/steer <text>` when `text` is that command, else undefined. */
export function steerText(text: string): string | undefined {
  const match = /^\/steer(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return match ? (match[1] ?? "").trim() : undefined;
}

/** Whether `text` is `/retry` (arguments are ignored, as upstream). */
export function isRetry(text: string): boolean {
  return /^\/retry(?:\s|$)/i.test(text.trim());
}

function preview(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

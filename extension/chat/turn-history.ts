import type { ChatItem } from "../../webview-ui/protocol.js";

/**
 * The slash commands the server answers itself without adding an exchange to the model's conversation
 * (acp-server/turn/slash-commands.ts; a unit test keeps the two lists in step). Anything else that starts with `/`
 * is a skill or an unknown command, which the model answers: an exchange like any message. `/steer` is not here:
 * the chat sends it only when no turn runs, and the server then makes it an ordinary prompt.
 */
export const SERVER_ANSWERED_COMMANDS: ReadonlySet<string> = new Set([
  "context",
  "compress",
  "memory",
  "model",
  "usage",
  "queue",
  "rollback",
  "undo",
  "retry",
  "new",
  "reset",
  "title",
  "tools",
  "reload-mcp",
  "version",
  "help",
]);

function commandName(text: string): string | undefined {
  return /^\/([A-Za-z][\w-]*)(?:\s|$)/.exec(text.trim())?.[1]?.toLowerCase();
}

/** Whether a message the user sent becomes an exchange of the conversation (so `/undo` counts it). */
export function isConversationText(text: string): boolean {
  const name = commandName(text);
  return name === undefined || !SERVER_ANSWERED_COMMANDS.has(name);
}

/** Whether the message empties the server's conversation (`/new`, `/reset`): earlier messages are out of reach. */
export function clearsConversation(text: string): boolean {
  const name = commandName(text);
  return name === "new" || name === "reset";
}

/**
 * How many exchanges `/undo` must take back so that the conversation ends just before user message `itemId`: the
 * conversation messages from it to the end. Undefined when it is not one (a command, or before a `/new`).
 */
export function exchangesFrom(items: readonly ChatItem[], itemId: string): number | undefined {
  const index = items.findIndex((item) => item.id === itemId);
  const item = items[index];
  if (item?.kind !== "user" || !item.canEdit) return undefined;
  return items.slice(index).filter((i) => i.kind === "user" && i.canEdit).length;
}

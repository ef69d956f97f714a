import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { formatContextReport } from "../agent/prompt/format-context-report.js";
import type { AcpSession } from "./acp-session.js";
import { HERMES_ACP_VERSION } from "./version.js";

/** A command handled by the server itself: its reply is sent as the agent's message and the model is not called. */
interface SlashCommand {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
  run(session: AcpSession, args: string): string | Promise<string>;
}

const COMMANDS: readonly SlashCommand[] = [
  {
    name: "context",
    description: "Show which context files were loaded, shadowed, blocked or truncated, and what each prompt layer costs",
    run: (session) => formatContextReport(session.ready.systemPrompt.report),
  },
  {
    name: "compress",
    description: "Compress the conversation now: summarise older turns, keep the recent ones",
    hint: "optional focus topic for the summary",
    run: (session, args) => session.compress(args || undefined),
  },
  {
    name: "version",
    description: "Show the Hermes Agent version",
    run: () => `Hermes Agent v${HERMES_ACP_VERSION}`,
  },
  {
    name: "help",
    description: "List the slash commands",
    run: () =>
      ["Available commands:", ...COMMANDS.map((c) => `  /${c.name.padEnd(10)}  ${c.description}`), "Unrecognized /commands are sent to the model as normal messages."].join("\n"),
  },
];

export function availableCommands(): AvailableCommand[] {
  return COMMANDS.map((c) => ({ name: c.name, description: c.description, ...(c.hint ? { input: { hint: c.hint } } : {}) }));
}

/** The reply to `text` when it is one of our commands, else undefined (it goes to the model). */
export function runSlashCommand(session: AcpSession, text: string): string | Promise<string> | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const command = COMMANDS.find((c) => c.name === match[1]!.toLowerCase());
  return command?.run(session, (match[2] ?? "").trim());
}

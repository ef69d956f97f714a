import type { AvailableCommand } from "@agentclientprotocol/sdk";
import {
  formatContextReport,
  formatInjectedHints,
  type MemoryTarget,
  memoryFilePath,
  memoryUsage,
  readMemoryEntries,
} from "../../agent/index.js";
import { HERMES_ACP_VERSION } from "../rpc/version.js";
import type { AcpSession } from "../session/acp-session.js";
import { reloadMcpCommand } from "./mcp-reload.js";
import { rollbackCommand, type SlashCommandIo } from "./rollback-command.js";
import { formatTools } from "./tools-report.js";
import { steerCommand, undoCommand } from "./turn-control.js";

/** A command handled by the server itself: its reply is sent as the agent's message and the model is not called. */
interface SlashCommand {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
  /** Answered at once even while a turn runs, instead of waiting its turn like other prompts (prompt-queue.ts). */
  readonly immediate?: true;
  run(session: AcpSession, args: string, io: SlashCommandIo): string | Promise<string>;
}

const COMMANDS: readonly SlashCommand[] = [
  {
    name: "context",
    description:
      "Show which context files were loaded, shadowed, blocked or truncated, what each prompt layer costs, and which subfolder hints came in",
    run: (session) =>
      `${formatContextReport(session.ready.systemPrompt.report)}\n\n${formatInjectedHints(session.hints.injected)}`,
  },
  {
    name: "compress",
    description: "Compress the conversation now: summarise older turns, keep the recent ones",
    hint: "optional focus topic for the summary",
    run: (session, args) => session.compress(args || undefined),
  },
  {
    name: "memory",
    description: "Show what Hermes remembers about you and your projects (MEMORY.md, USER.md)",
    run: (session) => formatMemory(session),
  },
  {
    name: "model",
    description: "Show the model, or switch to another configured one",
    hint: "model name or provider:model",
    run: (session, args) => modelCommand(session, args),
  },
  {
    name: "usage",
    description: "Show tokens used in this session and how full the context window is",
    run: (session) => formatUsage(session),
  },
  {
    name: "queue",
    description: "Queue a prompt to run after the current turn finishes",
    hint: "prompt to run next",
    immediate: true,
    run: (session, args) =>
      args ? `Queued for the next turn. (${session.prompts.queueText(args)} queued)` : "Usage: /queue <prompt>",
  },
  {
    name: "rollback",
    description:
      "List checkpoints (the workspace before each turn that changed it), show one's diff, or restore the files to it",
    hint: "[N | diff N | N <file>]",
    run: (session, args, io) => rollbackCommand(session, args, io),
  },
  {
    name: "undo",
    description: "Take the last exchange (or the last N) out of the conversation, and offer to restore their files",
    hint: "[N]",
    run: (session, args, io) => undoCommand(session, args, io),
  },
  {
    name: "retry",
    description: "Run your last message again, replacing the reply",
    // Answered as a model turn by the prompt handler (session-prompt.ts); listed here for /help and the menu.
    run: () => "Nothing to retry: the conversation is empty.",
  },
  {
    name: "steer",
    description: "Guidance for the running turn: the model reads it with its next tool results",
    hint: "guidance for the active turn",
    immediate: true,
    run: (session, args) => steerCommand(session, args),
  },
  {
    name: "new",
    description: "Clear this conversation and start afresh (the saved history stays searchable)",
    run: (session) => session.reset(),
  },
  {
    name: "reset",
    description: "Same as /new: clear this conversation and start afresh",
    run: (session) => session.reset(),
  },
  {
    name: "title",
    description: "Name this session (as the session list shows it)",
    hint: "session title",
    run: async (session, args) => {
      const title = args.replace(/\s+/g, " ").trim();
      if (!title) return "Usage: /title <text>";
      await session.setTitle(title);
      return `Session title: ${title}`;
    },
  },
  {
    name: "tools",
    description: "List the tools and toolsets of this session, and what the current mode lets them do",
    run: (session) => formatTools(session),
  },
  {
    name: "reload-mcp",
    description: "Restart this session's MCP servers from config.yaml and the editor's list, with their tools",
    run: (session) => reloadMcpCommand(session),
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
      [
        "Available commands:",
        ...COMMANDS.map((c) => `  /${c.name.padEnd(10)}  ${c.description}`),
        "Unrecognized /commands are sent to the model as normal messages.",
      ].join("\n"),
  },
];

function formatMemory(session: AcpSession): string {
  const home = session.ready.config.home;
  const settings = session.ready.toolSettings;
  const block = (target: MemoryTarget, title: string, limit: number) => {
    const entries = readMemoryEntries(home, target);
    const used = memoryUsage(entries);
    const header = `**${title}** (${used.toLocaleString("en-US")}/${limit.toLocaleString("en-US")} chars, ${memoryFilePath(home, target)})`;
    return entries.length
      ? `${header}\n${entries.map((e) => `- ${e.replace(/\n/g, " ")}`).join("\n")}`
      : `${header}\n- (empty)`;
  };
  return [
    block("memory", "Memory", settings.memoryCharLimit),
    block("user", "User profile", settings.userCharLimit),
  ].join("\n\n");
}

function modelCommand(session: AcpSession, args: string): string {
  const ready = session.ready;
  if (!ready.ok) return `Hermes is not ready: ${ready.problem}`;
  if (args) {
    const choice = ready.modelChoices.find((r) => `${r.providerId}:${r.model}` === args || r.model === args);
    if (!choice || !session.switchModel(`${choice.providerId}:${choice.model}`)) {
      return `'${args}' is not a configured model. Choices: ${ready.modelChoices.map((r) => `${r.providerId}:${r.model}`).join(", ")}`;
    }
    return `Model switched to: ${choice.model}\nProvider: ${choice.providerId}`;
  }
  const current = ready.conversation.runtime;
  return `Current model: ${current.model}\nProvider: ${current.providerId}`;
}

function formatUsage(session: AcpSession): string {
  const u = session.usage;
  const n = (v: number) => v.toLocaleString("en-US");
  const lines = [
    `Model calls: ${n(u.calls)}`,
    `Input tokens: ${n(u.inputTokens)} (cached: ${n(u.cachedInputTokens)})`,
    `Output tokens: ${n(u.outputTokens)}`,
  ];
  const window = session.ready.ok ? session.ready.conversation.runtime.contextLength : undefined;
  if (window && u.lastContextTokens)
    lines.push(
      `Context: ${n(u.lastContextTokens)} of ${n(window)} tokens (${Math.round((u.lastContextTokens / window) * 100)}%)`,
    );
  return lines.join("\n");
}

export function availableCommands(): AvailableCommand[] {
  return COMMANDS.map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.hint ? { input: { hint: c.hint } } : {}),
  }));
}

/** The reply to `text` when it is one of our commands, else undefined (it goes to the model). */
export function runSlashCommand(
  session: AcpSession,
  text: string,
  io: SlashCommandIo,
): string | Promise<string> | undefined {
  const found = findCommand(text);
  return found?.command.run(session, found.args, io);
}

/** Whether `text` is a command answered at once, even while a turn runs (/queue). */
export function isImmediateCommand(text: string): boolean {
  return findCommand(text)?.command.immediate === true;
}

function findCommand(text: string): { command: SlashCommand; args: string } | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const command = match ? COMMANDS.find((c) => c.name === match[1]!.toLowerCase()) : undefined;
  return command ? { command, args: (match![2] ?? "").trim() } : undefined;
}

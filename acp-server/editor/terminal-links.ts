import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";

/** Sends one update in order with the running turn's others; resolves once it has been written. */
export type AnnounceUpdate = (update: SessionUpdate) => Promise<void>;

/**
 * Which editor terminal shows which tool call's command. ACP wants the terminal embedded in the call's content
 * (`{type:"terminal", terminalId}`) before it is released, and tool_call_update content replaces what was there: so
 * every later update of that call (live progress, the final result) carries the terminal first as well, or the
 * editor would drop it from the call. One per session; the running prompt attaches its update channel.
 */
export class TerminalLinks {
  private readonly byCall = new Map<string, string>();
  private announce: AnnounceUpdate | undefined;

  /** The running prompt's way to send updates in order; returns the function that detaches it. */
  attach(announce: AnnounceUpdate): () => void {
    this.announce = announce;
    return () => {
      if (this.announce === announce) this.announce = undefined;
    };
  }

  /** `terminalId` shows `toolCallId`'s command: embeds it in the call. Resolves once that update is written. */
  async link(toolCallId: string, terminalId: string): Promise<void> {
    this.byCall.set(toolCallId, terminalId);
    await this.announce?.({
      sessionUpdate: "tool_call_update",
      toolCallId,
      content: [{ type: "terminal", terminalId }],
    });
  }

  /**
   * The update with its call's terminal as its content (when the call has one). The editor shows the terminal's
   * output itself, so the text progress and the result's output are not sent as well (Zed would show them twice):
   * the final update says only how the command ended.
   */
  embed(update: SessionUpdate): SessionUpdate {
    if (update.sessionUpdate !== "tool_call_update") return update;
    const terminalId = this.byCall.get(update.toolCallId);
    if (!terminalId || !update.content) return update;
    const terminal: ToolCallContent = { type: "terminal", terminalId };
    if (update.status !== "completed" && update.status !== "failed") return { ...update, content: [terminal] };
    // The final update is the last one to carry it.
    this.byCall.delete(update.toolCallId);
    const outcome = update.content.flatMap((c) =>
      c.type === "content" && c.content.type === "text" ? [howItEnded(c.content.text)] : [],
    );
    return {
      ...update,
      content: [
        terminal,
        ...outcome.map((text): ToolCallContent => ({ type: "content", content: { type: "text", text } })),
      ],
    };
  }
}

/** The terminal tool's result (`{output, exit_code, error}`) as one line; any other text as it is. */
function howItEnded(result: string): string {
  try {
    const parsed = JSON.parse(result) as { exit_code?: unknown; error?: unknown };
    const parts = [
      typeof parsed.exit_code === "number" ? `exit code ${parsed.exit_code}` : "",
      typeof parsed.error === "string" && parsed.error ? parsed.error : "",
    ];
    return parts.filter(Boolean).join(": ") || result;
  } catch {
    return result;
  }
}

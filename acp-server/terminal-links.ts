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

  /** `terminalId` shows `toolCallId`'s `command`: embeds it in the call. Resolves once that update is written. */
  async link(toolCallId: string, terminalId: string, command: string): Promise<void> {
    this.byCall.set(toolCallId, terminalId);
    await this.announce?.({ sessionUpdate: "tool_call_update", toolCallId, content: [textContent(`$ ${command}`)] });
  }

  /** The update with its call's terminal put first in the content it sets (when the call has one). */
  embed(update: SessionUpdate): SessionUpdate {
    if (update.sessionUpdate !== "tool_call_update") return update;
    const terminalId = this.byCall.get(update.toolCallId);
    if (!terminalId) return update;
    // The final update is the last one to carry it.
    if (update.status === "completed" || update.status === "failed") this.byCall.delete(update.toolCallId);
    if (!update.content || update.content.some((c) => c.type === "terminal")) return update;
    return { ...update, content: [{ type: "terminal", terminalId }, ...update.content] };
  }
}

function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

import type { SessionUpdate } from "@agentclientprotocol/sdk";

const INTERVAL_MS = 250;
const SHOWN_CHARS = 4000;

/**
 * Live output of running tools (terminal commands) as `tool_call_update`s: at most one every 250 ms per call, each
 * carrying the command and the latest 4,000 characters, so a chatty build costs the editor little.
 */
export class ToolProgressRelay {
  private readonly calls = new Map<string, { header: string; output: string; timer?: NodeJS.Timeout }>();

  constructor(private readonly send: (update: SessionUpdate) => void) {}

  started(callId: string, header: string): void {
    this.calls.set(callId, { header, output: "" });
  }

  progress(callId: string, text: string): void {
    const call = this.calls.get(callId);
    if (!call) return;
    call.output = (call.output + text).slice(-SHOWN_CHARS * 2);
    call.timer ??= setTimeout(() => {
      call.timer = undefined;
      this.flush(callId);
    }, INTERVAL_MS);
  }

  /** The call finished: drop pending progress (the final update carries the result). */
  ended(callId: string): void {
    const call = this.calls.get(callId);
    if (call?.timer) clearTimeout(call.timer);
    this.calls.delete(callId);
  }

  private flush(callId: string): void {
    const call = this.calls.get(callId);
    if (!call) return;
    const text = `${call.header}\n${call.output.slice(-SHOWN_CHARS)}`;
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      status: "in_progress",
      content: [{ type: "content", content: { type: "text", text } }],
    });
  }
}

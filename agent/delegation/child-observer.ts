import type { TokenUsage } from "../providers/model-client.js";
import type { AgentEvent } from "../tools/turn-events.js";

/** One tool call of a subagent, as upstream's `tool_trace` reports it back to the parent. */
export interface ToolTraceEntry {
  tool: string;
  args_bytes: number;
  result_bytes?: number;
  status?: "ok" | "error";
}

const PREVIEW_ARGS = ["command", "path", "pattern", "query", "url", "action", "session_id"] as const;
const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * Watches one subagent's events. The user sees a line per step on the delegate_task call (`[2/3] running:
 * terminal ls`), never the subagent's raw output; the parent later gets the tool trace and token counts.
 */
export class ChildObserver {
  readonly trace: ToolTraceEntry[] = [];
  readonly tokens = { input: 0, output: 0 };
  /** The last failure the loop reported (provider refused, unreachable), for a subagent that ends without a reply. */
  lastError: string | undefined;
  private readonly traceById = new Map<string, ToolTraceEntry>();
  private text = "";

  /** `prefix` is "[2/3] " in a batch and empty for a single task, as upstream's progress lines. */
  constructor(
    private readonly prefix: string,
    private readonly report: (line: string) => void,
    private readonly onUsage?: (usage: TokenUsage) => void,
  ) {}

  line(text: string): void {
    this.report(`${this.prefix}${text}\n`);
  }

  readonly sink = (event: AgentEvent): void => {
    switch (event.type) {
      case "text_delta":
        this.text += event.text;
        return;
      case "usage":
        this.tokens.input += event.usage.inputTokens;
        this.tokens.output += event.usage.outputTokens;
        this.onUsage?.(event.usage);
        return;
      case "tool_start": {
        this.flushText();
        const entry: ToolTraceEntry = { tool: event.name, args_bytes: Buffer.byteLength(event.rawArguments) };
        this.trace.push(entry);
        this.traceById.set(event.callId, entry);
        const preview = argPreview(event.args);
        this.line(`running: ${event.name}${preview ? ` ${preview}` : ""}`);
        return;
      }
      case "tool_end": {
        const entry = this.traceById.get(event.callId);
        if (entry) {
          entry.result_bytes = Buffer.byteLength(event.result.content);
          entry.status = event.result.isError ? "error" : "ok";
        }
        return;
      }
      case "error":
        this.lastError = event.message;
        this.line(`error: ${shorten(oneLine(event.message), 200)}`);
        return;
      default:
        // Thoughts, a subagent's live command output, its plan and notices stay inside the subagent.
        return;
    }
  };

  /** What the subagent said since its last tool call, as one short line. */
  flushText(): void {
    const said = oneLine(this.text);
    this.text = "";
    if (said) this.line(`says: ${shorten(said, 120)}`);
  }
}

function argPreview(args: Readonly<Record<string, unknown>> | undefined): string {
  if (!args) return "";
  for (const key of PREVIEW_ARGS) {
    const value = args[key];
    if (typeof value === "string" && value.trim()) return shorten(oneLine(value), 80);
  }
  return "";
}

import type { RuntimeProvider } from "../config/runtime-provider.js";
import type { ChatMessage } from "../providers/messages.js";
import type { FinishReason, ModelClient } from "../providers/model-client.js";
import { describeProviderError, toProviderError } from "../providers/provider-error.js";
import type { AgentEventSink, StopReason } from "./events.js";

export interface ConversationOptions {
  readonly runtime: RuntimeProvider;
  /** Built once per session and sent byte for byte identical on every turn, so provider prompt caches hit. */
  readonly systemPrompt: string;
  /** Opens the model client; called once, on the first turn, so SDKs load only when needed. */
  readonly openModelClient: (runtime: RuntimeProvider) => Promise<ModelClient>;
}

/** One session's conversation with the model: the history and the turns that extend it. */
export class Conversation {
  private readonly history: ChatMessage[] = [];
  private client: Promise<ModelClient> | undefined;

  constructor(private readonly options: ConversationOptions) {}

  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  get runtime(): RuntimeProvider {
    return this.options.runtime;
  }

  /**
   * Runs one user turn. Never throws for provider trouble: a failure is reported as an `error` event, the history
   * is rolled back to before the turn (so a retry is not a duplicate), and the turn ends normally. A cancelled turn
   * keeps what the user already saw (their message and any partial reply).
   */
  async runTurn(userText: string, signal: AbortSignal, emit: AgentEventSink): Promise<StopReason> {
    const mark = this.history.length;
    this.history.push({ role: "user", content: userText });
    let reply = "";
    let reasoning = "";
    let finish: FinishReason = "stop";
    try {
      const client = await this.modelClient();
      const stream = client.stream(
        { model: this.options.runtime.model, systemPrompt: this.options.systemPrompt, messages: this.history.slice(), tools: [] },
        signal,
      );
      for await (const event of stream) {
        if (event.type === "text") {
          reply += event.text;
          emit({ type: "text_delta", text: event.text });
        } else if (event.type === "reasoning") {
          reasoning += event.text;
          emit({ type: "thought_delta", text: event.text });
        } else if (event.type === "usage") {
          emit({ type: "usage", usage: event.usage });
        } else if (event.type === "finish") {
          finish = event.reason;
        }
      }
    } catch (error) {
      const failure = toProviderError(error, signal);
      if (failure.kind === "aborted" || signal.aborted) {
        if (reply) this.history.push(assistant(reply, reasoning));
        return "cancelled";
      }
      this.history.length = mark;
      emit({ type: "error", message: describeProviderError(failure, this.options.runtime) });
      return "end_turn";
    }
    if (signal.aborted) {
      if (reply) this.history.push(assistant(reply, reasoning));
      return "cancelled";
    }
    this.history.push(assistant(reply, reasoning));
    return finish === "length" ? "max_tokens" : finish === "refusal" ? "refusal" : "end_turn";
  }

  /**
   * Loads the provider SDK and opens the client ahead of the first turn. Called once a session exists (never at
   * start-up), so the first prompt does not pay for module loading. Failures surface on the turn instead.
   */
  warmUp(): void {
    this.modelClient().catch(() => undefined);
  }

  private modelClient(): Promise<ModelClient> {
    if (!this.client) {
      this.client = this.options.openModelClient(this.options.runtime);
      // A failed open (bad api_mode, SDK load error) is retried on the next turn rather than cached forever.
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }
}

function assistant(content: string, reasoning: string): ChatMessage {
  return reasoning ? { role: "assistant", content, reasoning } : { role: "assistant", content };
}

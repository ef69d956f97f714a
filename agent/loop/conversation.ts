import type { CompressionSettings } from "../compress/compression-settings.js";
import { formatTodoSnapshot, pushUserMessage } from "../compress/todo-snapshot.js";
import { estimateFixedTokens } from "../compress/token-estimate.js";
import type { ReasoningEffort } from "../config/model-reasoning.js";
import type { RuntimeProvider } from "../config/runtime-provider.js";
import type { AssistantMessage, ChatMessage, ImageAttachment, ToolSchema } from "../providers/messages.js";
import type { ModelClient } from "../providers/model-client.js";
import { describeProviderError, toProviderError } from "../providers/provider-error.js";
import { warmHttpClient } from "../providers/warm-http-client.js";
import type { TodoItem } from "../tools/session-tool-state.js";
import type { Tool } from "../tools/tool.js";
import type { ToolEnvironment } from "../tools/tool-environment.js";
import type { AgentEventSink, StopReason } from "../tools/turn-events.js";
import { HistoryCompaction } from "./history-compaction.js";
import { type ModelStep, runModelStep } from "./model-step.js";
import { SteerInbox, withSteer } from "./steering.js";
import { runToolCalls } from "./tool-runner.js";

export interface ConversationOptions {
  readonly runtime: RuntimeProvider;
  /**
   * Built once per session and sent byte for byte identical on every turn, so provider prompt caches hit (until a
   * compression or a model switch). A function is called when the prompt is first needed: building it scans the
   * context files, which session/new should not wait for.
   */
  readonly systemPrompt: string | (() => string);
  /** Opens the model client; called once, on the first turn, so SDKs load only when needed. */
  readonly openModelClient: (runtime: RuntimeProvider) => Promise<ModelClient>;
  readonly tools: readonly Tool[];
  /** Model calls allowed per user turn (`agent.max_turns`, upstream default 90). */
  readonly maxIterations: number;
  /** `compression:` from config.yaml; without it the history is never compressed. */
  readonly compression?: CompressionSettings;
  /** `agent.reasoning_effort` from config.yaml: the Thinking level until the session chooses another. */
  readonly reasoningEffort?: ReasoningEffort;
  /**
   * The system prompt to use after a compression, given the one in use (upstream rebuilds it then, with memory
   * reloaded from disk). Without it the prompt stays as it is.
   */
  readonly refreshSystemPrompt?: (current: string) => string;
}

// When the model's window is unknown, plan compression as for a 128k-token model.
const DEFAULT_CONTEXT_TOKENS = 128_000;

/** Sent (as a user message, so the history keeps its alternation) when a turn runs out of iterations. */
export const BUDGET_EXHAUSTED_NOTE =
  "[The tool-call budget for this turn is used up. Do not call any more tools. Summarise what you have done, what is left, and what the user should do next.]";

/**
 * One session's conversation with the model: the OpenAI-format history and the turns that extend it. A turn
 * alternates model calls and tool runs (assistant with tool_calls, then the tool results in call order, then the
 * assistant again) until the model answers without tools, the budget runs out, or the user cancels.
 */
export class Conversation {
  private readonly history: ChatMessage[] = [];
  private client: Promise<ModelClient> | undefined;
  private toolList: readonly Tool[];
  private toolsByName: ReadonlyMap<string, Tool>;
  private schemas: readonly ToolSchema[] | undefined;
  private fixedTokens: number | undefined;
  private readonly steers = new SteerInbox();

  readonly compaction: HistoryCompaction | undefined;
  private currentRuntime: RuntimeProvider;
  /** The prompt in use: undefined until first needed when the options gave a function. */
  private currentSystemPrompt: string | undefined;
  /** A compression happened and the task list has not been re-injected since. */
  private todoSnapshotDue = false;
  private thinking: ReasoningEffort | undefined;

  constructor(private readonly options: ConversationOptions) {
    this.currentRuntime = options.runtime;
    this.thinking = options.reasoningEffort;
    if (typeof options.systemPrompt === "string") this.currentSystemPrompt = options.systemPrompt;
    this.toolList = options.tools;
    this.toolsByName = new Map(options.tools.map((t) => [t.name, t]));
    this.compaction = options.compression
      ? new HistoryCompaction({
          settings: options.compression,
          contextLength: options.runtime.contextLength ?? DEFAULT_CONTEXT_TOKENS,
          fixedTokens: () => (this.fixedTokens ??= estimateFixedTokens(this.systemPrompt, this.toolSchemas)),
          model: () => this.currentRuntime.model,
          client: () => this.modelClient(),
          onCompressed: () => this.afterCompression(),
        })
      : undefined;
  }

  /**
   * The tools as providers get them, written when the first request needs them: zod writes each tool's JSON Schema
   * (~15 ms for all of them), which opening a session need not pay.
   */
  private get toolSchemas(): readonly ToolSchema[] {
    this.schemas ??= this.toolList.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
    return this.schemas;
  }

  /** `/steer <text>` while a turn runs: the model reads it with the next tool results (steering.ts). */
  steer(text: string): void {
    this.steers.add(text);
  }

  /** Steers the last turn ended without delivering (it made no tool call after them), for the caller to send on. */
  takeUndeliveredSteers(): string[] {
    return this.steers.drain();
  }

  /** `/compress [focus]`, between turns. */
  compressNow(focus: string | undefined, signal: AbortSignal): Promise<string> {
    if (!this.compaction) return Promise.resolve("Compression is not available for this session.");
    return this.compaction.compressNow(this.history, focus, signal);
  }

  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  /** Seeds the history of a session loaded from the store (before its first turn in this process). */
  restore(messages: readonly ChatMessage[]): void {
    this.history.splice(0, this.history.length, ...messages);
  }

  /** The tools the model is offered (built-ins, MCP tools, delegate_task), for /tools. */
  get tools(): readonly Tool[] {
    return this.toolList;
  }

  /** Replaces the tools between turns (/reload-mcp); the next request sends their schemas. */
  setTools(tools: readonly Tool[]): void {
    this.toolList = tools;
    this.toolsByName = new Map(tools.map((t) => [t.name, t]));
    this.schemas = undefined;
    this.fixedTokens = undefined;
  }

  get runtime(): RuntimeProvider {
    return this.currentRuntime;
  }

  /**
   * Switches the model (the `model` config option): a new client on the next request, and the system prompt
   * rebuilt for it (its model line changes), the one time besides compression that the prompt changes.
   */
  /** The session's Thinking level (undefined: none chosen, each model keeps its default). */
  get reasoningEffort(): ReasoningEffort | undefined {
    return this.thinking;
  }

  /** Changes the Thinking level; the next model call asks for it, even within a running turn. */
  setReasoningEffort(effort: ReasoningEffort | undefined): void {
    this.thinking = effort;
  }

  /** The system prompt the next model call sends (built now if it has not been yet). */
  get systemPrompt(): string {
    if (this.currentSystemPrompt === undefined) {
      const given = this.options.systemPrompt;
      this.currentSystemPrompt = typeof given === "string" ? given : given();
    }
    return this.currentSystemPrompt;
  }

  switchRuntime(runtime: RuntimeProvider, systemPrompt: string): void {
    this.currentRuntime = runtime;
    this.currentSystemPrompt = systemPrompt;
    this.client = undefined;
  }

  /**
   * Runs one user turn. Never throws for provider trouble: a failure is reported as an `error` event and the turn
   * ends normally. When the model call that failed was the turn's first, the whole turn is rolled back (a retry is
   * not a duplicate); after tools have run, what they did stays in the history and only the broken reply is
   * dropped. A cancelled turn keeps what the user already saw. `images` travel with the user's text.
   */
  async runTurn(
    userText: string,
    signal: AbortSignal,
    emit: AgentEventSink,
    env: ToolEnvironment,
    images: readonly ImageAttachment[] = [],
  ): Promise<StopReason> {
    env.state.memoryFailuresThisTurn = 0;
    // Compress before this turn's message joins, so that a rollback to `mark` stays valid.
    await this.compaction?.maybeCompress(this.history, signal, emit);
    const mark = this.history.length;
    // A history that already ends with a user message (a task list left by a turn that failed after a mid-turn
    // compression) gets this one joined to it, so a rollback puts that message back as it was.
    const lastBefore = this.history[mark - 1];
    // After a compression (this one or a /compress since), the task list follows the user's words in their message,
    // as upstream appends it after them, without two user messages in a row.
    const todoSnapshot = this.takeTodoSnapshot(env.state.todos);
    pushUserMessage(this.history, {
      role: "user",
      content: todoSnapshot ? `${userText}\n\n${todoSnapshot}` : userText,
      ...(images.length > 0 ? { images } : {}),
    });
    for (let iteration = 1; ; iteration++) {
      const lastCall = iteration > this.options.maxIterations;
      if (lastCall) pushUserMessage(this.history, { role: "user", content: BUDGET_EXHAUSTED_NOTE });
      let step: ModelStep;
      let streamed = "";
      const track: AgentEventSink = (event) => {
        if (event.type === "text_delta") streamed += event.text;
        emit(event);
      };
      try {
        const client = await this.modelClient();
        step = await runModelStep(
          client,
          {
            model: this.currentRuntime.model,
            systemPrompt: this.systemPrompt,
            messages: this.history.slice(),
            tools: lastCall ? [] : this.toolSchemas,
            reasoningEffort: this.thinking ?? "default",
          },
          signal,
          track,
          `call_${iteration}_`,
        );
      } catch (error) {
        const failure = toProviderError(error, signal);
        if (failure.kind === "aborted" || signal.aborted) {
          // Keep what the user saw, and keep user/assistant alternation for the next turn.
          this.history.push({
            role: "assistant",
            content: `${streamed}${streamed ? "\n\n" : ""}[interrupted by the user]`,
          });
          return "cancelled";
        }
        if (iteration === 1) {
          this.history.length = mark;
          if (lastBefore) this.history[mark - 1] = lastBefore;
          if (todoSnapshot) this.todoSnapshotDue = true;
        }
        emit({ type: "error", message: describeProviderError(failure, this.currentRuntime) });
        return "end_turn";
      }
      const calls = lastCall ? [] : step.toolCalls;
      this.history.push(assistantMessage(step, calls));
      if (signal.aborted) return this.endCancelled(calls);
      if (calls.length === 0) {
        if (lastCall) return "max_turn_requests";
        return step.finish === "length" ? "max_tokens" : step.finish === "refusal" ? "refusal" : "end_turn";
      }
      const executed = await runToolCalls(calls, this.toolsByName, env, signal, emit);
      // What the user sent with /steer meanwhile rides at the end of the last result (steering.ts says why).
      const steer = signal.aborted ? undefined : this.steers.take();
      executed.forEach(({ call, result }, i) => {
        const content = steer && i === executed.length - 1 ? withSteer(result.content, steer) : result.content;
        this.history.push({ role: "tool", toolCallId: call.id, content });
      });
      if (signal.aborted) return "cancelled";
      if (await this.compaction?.maybeCompress(this.history, signal, emit)) {
        // Mid-turn the model works on without a user turn: the task list comes back as a message of its own after
        // the tool results, or joined to a user message the compressed history ends with (never two in a row).
        const snapshot = this.takeTodoSnapshot(env.state.todos);
        if (snapshot) pushUserMessage(this.history, { role: "user", content: snapshot });
      }
    }
  }

  /**
   * Loads the provider SDK and opens the client ahead of the first turn, then warms Node's HTTP client
   * (warm-http-client.ts); the tools' schemas are written in a later macrotask (from the build's table in a bundle).
   * Called once a session exists (never at start-up), so neither session/new nor the first prompt pays for them.
   * Failures surface on the turn instead.
   */
  warmUp(): void {
    this.modelClient().then(warmHttpClient, () => undefined);
    setImmediate(() => this.toolSchemas);
  }

  /**
   * After a compression, as upstream: the system prompt is rebuilt (a prompt that cannot be keeps the one in use:
   * stale memory beats a failed turn), and the active task list is due back in the history, since the summary
   * keeps what was done rather than what is left.
   */
  private afterCompression(): void {
    this.todoSnapshotDue = true;
    if (!this.options.refreshSystemPrompt) return;
    try {
      this.currentSystemPrompt = this.options.refreshSystemPrompt(this.systemPrompt);
    } catch {
      // Keep the prompt in use.
    }
  }

  /** The task list to re-inject, once, when a compression made it due (nothing when no item is active). */
  private takeTodoSnapshot(todos: readonly TodoItem[]): string | undefined {
    if (!this.todoSnapshotDue) return undefined;
    this.todoSnapshotDue = false;
    return formatTodoSnapshot(todos);
  }

  /** Every tool call needs a result, or the next request is malformed: cancelled calls get one saying so. */
  private endCancelled(calls: readonly { id: string }[]): StopReason {
    for (const call of calls)
      this.history.push({ role: "tool", toolCallId: call.id, content: "Cancelled by the user before it ran." });
    return "cancelled";
  }

  private modelClient(): Promise<ModelClient> {
    if (!this.client) {
      this.client = this.options.openModelClient(this.currentRuntime);
      // A failed open (bad api_mode, SDK load error) is retried on the next turn rather than cached forever.
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }
}

function assistantMessage(step: ModelStep, calls: ModelStep["toolCalls"]): AssistantMessage {
  return {
    role: "assistant",
    content: step.text,
    ...(calls.length > 0 ? { toolCalls: calls } : {}),
    ...(step.reasoning ? { reasoning: step.reasoning } : {}),
    // Signed for the reply as it came: a reply whose tool calls are dropped (the budget ran out) is not that reply.
    ...(step.signedThinking.length > 0 && calls.length === step.toolCalls.length
      ? { signedThinking: step.signedThinking }
      : {}),
  };
}

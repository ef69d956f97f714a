import {
  type AgentEventSink,
  type Approver,
  buildSessionPrompt,
  type ChatMessage,
  type Conversation,
  type Env,
  type HintMemory,
  type ImageAttachment,
  LocalWorkspace,
  type PreparedConversation,
  prepareConversation,
  type ReasoningEffort,
  type SessionMode,
  type SessionStore,
  type StopReason,
  type SubdirectoryHintTracker,
  type TokenUsage,
  type ToolEnvironment,
  type TurnCheckpoint,
  type Workspace,
} from "../../agent/index.js";
import type { RestoreApprover } from "../editor/acp-approver.js";
import { EditorDocuments } from "../editor/editor-documents.js";
import { TerminalLinks } from "../editor/terminal-links.js";
import { PromptQueue } from "../turn/prompt-queue.js";
import { type StartupNotice, startupNotices } from "../updates/startup-notices.js";
import { SessionEvents } from "./session-events.js";
import type { SessionMcp } from "./session-mcp.js";
import type { PersistedSessionState, SessionPersistence } from "./session-persistence.js";
import { sessionToolEnvironment } from "./session-tool-environment.js";
import { thinkingChoice } from "./thinking-option.js";

export interface AcpSessionOptions {
  readonly approver: Approver;
  /** Asks before /rollback restores files; without one, /rollback lists and diffs but does not restore. */
  readonly restoreApprover?: RestoreApprover;
  /** The server's log, for what the user is told only once (a checkpoint that failed). */
  readonly log?: (message: string) => void;
  readonly persistence?: SessionPersistence;
  /** The session store (possibly still opening), lent to session_search. */
  readonly store?: Promise<SessionStore>;
  /** History of a session loaded from the store, given to the conversation once it exists. */
  readonly history?: readonly ChatMessage[];
  readonly hintMemory?: HintMemory;
  /** The mode a reloaded session had. */
  readonly mode?: SessionMode;
  /** The Thinking level a reloaded session had chosen. */
  readonly reasoningEffort?: ReasoningEffort;
  readonly workspace?: Workspace;
  /** Which editor terminal shows which tool call (when the workspace runs commands in the editor's terminals). */
  readonly terminals?: TerminalLinks;
  /** Called after each turn (the server schedules store compaction). */
  readonly onTurnEnd?: () => void;
  /** The session's MCP servers: their tools, how to stop them when the session ends, /reload-mcp's restart. */
  readonly mcp?: SessionMcp;
  /** More things the user must hear when the session opens (a corrupt session database that was recovered). */
  readonly notices?: readonly StartupNotice[];
}

/**
 * One ACP session: its working directory, its conversation and tools, and the turn in flight. Prompts are
 * serialised (a prompt sent while a turn runs waits for it), and `cancel` aborts the running turn and everything
 * under it (the model request, tools, their process groups). Each turn is saved before its prompt returns.
 */
export class AcpSession {
  private prepared: PreparedConversation;
  private tools: ToolEnvironment;
  private pendingHistory: readonly ChatMessage[] | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;
  /** Files and commands of this session (through the editor when it offers them); attachments are read here too. */
  readonly workspace: Workspace;
  /** Its `session/prompt` requests, one at a time (see prompt-queue.ts). */
  readonly prompts = new PromptQueue();
  /** Settles once the session's first updates (commands, notices) are out; prompt updates must follow them. */
  announced: Promise<void> = Promise.resolve();
  /** Notices, the title a turn gives, a model switched: heard by the request whose turn it is (session-events.ts). */
  readonly events = new SessionEvents();
  /** The Thinking level chosen in this session (undefined: config.yaml's `agent.reasoning_effort` applies). */
  private reasoningChoice: ReasoningEffort | undefined;
  /** What the editor opened and focused since the last turn (ACP document events). */
  readonly documents: EditorDocuments;
  /** Editor terminals shown in tool calls: every update of such a call must carry its terminal. */
  readonly terminals: TerminalLinks;
  /** Token use over the session's life in this process, for /usage. */
  readonly usage = { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, lastContextTokens: 0 };

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly env: Env,
    prepared: PreparedConversation,
    private readonly options: AcpSessionOptions,
  ) {
    this.prepared = prepared;
    this.workspace = options.workspace ?? new LocalWorkspace(cwd);
    this.pendingHistory = options.history;
    this.tools = this.toolEnvironment(options.hintMemory);
    this.tools.state.mode = options.mode ?? "default";
    this.documents = new EditorDocuments([cwd, this.hints.workingDir]);
    this.terminals = options.terminals ?? new TerminalLinks();
    this.adoptHistory();
    this.reasoningChoice = options.reasoningEffort;
    this.adoptReasoningChoice();
    for (const notice of options.notices ?? []) this.tell(notice);
  }

  /**
   * Tells how the context files were loaded (truncated, blocked). Called once the session/new or session/load reply
   * is out: reading the report builds the system prompt, which scans every context file.
   */
  tellContextNotices(): void {
    for (const notice of startupNotices(this.prepared.systemPrompt.report)) this.tell(notice);
  }

  get ready(): PreparedConversation {
    return this.prepared;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** The session's hint tracker: fed by tool calls and by the files the editor names. */
  get hints(): SubdirectoryHintTracker {
    return this.tools.hints as SubdirectoryHintTracker;
  }

  /** Snapshots before each turn's first change, and the store /rollback reads. */
  get checkpoint(): TurnCheckpoint | undefined {
    return this.tools.state.checkpoint;
  }

  get restoreApprover(): RestoreApprover | undefined {
    return this.options.restoreApprover;
  }

  get mode(): SessionMode {
    return this.tools.state.mode;
  }

  /** Changes the mode (from the client) and saves it with the session. */
  async setMode(mode: SessionMode): Promise<void> {
    this.tools.state.mode = mode;
    await this.options.persistence?.saveState(this.persistedState());
  }

  /**
   * Changes the Thinking level (from the client) and saves it with the session; the next model call asks for it,
   * even one within the running turn. Returns why not when the current model does not offer that level.
   */
  async setReasoningEffort(value: unknown): Promise<string | undefined> {
    if (!this.prepared.ok) return "no model is configured yet";
    const effort = thinkingChoice(this.prepared.conversation, value);
    if (!effort) return `'${String(value)}' is not a Thinking level of ${this.prepared.conversation.runtime.model}`;
    this.reasoningChoice = effort;
    this.adoptReasoningChoice();
    await this.options.persistence?.saveState(this.persistedState());
    return undefined;
  }

  /** Switches to one of the configured models (`provider:model`); false when it is not one of them. */
  switchModel(value: string): boolean {
    if (!this.prepared.ok) return false;
    const runtime = this.prepared.modelChoices.find((r) => `${r.providerId}:${r.model}` === value);
    if (!runtime) return false;
    const { systemPrompt } = buildSessionPrompt(this.prepared.config, this.cwd, new Date(), runtime);
    this.prepared.conversation.switchRuntime(runtime, systemPrompt.text);
    this.events.emit({ type: "config_changed" });
    return true;
  }

  get store(): Promise<SessionStore> | undefined {
    return this.options.store;
  }

  recordUsage(usage: TokenUsage): void {
    this.usage.calls++;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usage.cachedInputTokens += usage.cachedInputTokens ?? 0;
    this.usage.lastContextTokens = usage.inputTokens + usage.outputTokens;
  }

  /** A subagent's model call: it counts in the totals, but the context fill shown stays the parent's. */
  private recordChildUsage(usage: TokenUsage): void {
    const context = this.usage.lastContextTokens;
    this.recordUsage(usage);
    this.usage.lastContextTokens = context;
  }

  /** `/new`: clears the conversation (queued after a running turn); the saved history stays in the store. */
  reset(): Promise<string> {
    const job = this.tail.then(async () => {
      if (!this.prepared.ok) return "Conversation history cleared.";
      this.prepared.conversation.restore([]);
      if (this.prepared.conversation.compaction) this.prepared.conversation.compaction.replaced = true;
      this.tools.state.todos = [];
      await this.save("");
      return "Conversation history cleared.";
    });
    this.tail = job.catch(() => undefined);
    return job;
  }

  /**
   * Changes the conversation between turns (queued after a running one, like /new), then saves it: the store keeps
   * what the conversation keeps. Undefined when the session has no conversation yet (Hermes not configured).
   */
  editHistory<T>(change: (conversation: Conversation) => T): Promise<T | undefined> {
    const job = this.tail.then(async () => {
      if (!this.prepared.ok) return undefined;
      const result = change(this.prepared.conversation);
      await this.save("");
      return result;
    });
    this.tail = job.catch(() => undefined);
    return job;
  }

  get mcp(): SessionMcp | undefined {
    return this.options.mcp;
  }

  /** `/steer <text>`: false when no turn runs (the text is then an ordinary prompt). */
  steer(text: string): boolean {
    if (!this.running || !this.prepared.ok) return false;
    this.prepared.conversation.steer(text);
    return true;
  }

  /** `/title <text>`: the session's title in the store and in the client's list. */
  async setTitle(title: string): Promise<void> {
    await this.options.persistence?.setTitle(title);
    this.events.emit({ type: "title", title });
  }

  /** A notice heard before those already waiting (commands not sandboxed, a session database recovered). */
  addNotice(notice: StartupNotice): void {
    this.tell(notice, true);
  }

  private tell(notice: StartupNotice, first = false): void {
    this.events.emit({ type: "notice", ...notice }, first);
  }

  /**
   * Runs a turn after any earlier one; a problem that keeps the session from a model is reported as an error event.
   * `text` may be a function: it is called only once the session is ready to call the model (user-turn.ts says why).
   */
  prompt(
    text: string | (() => string),
    emit: AgentEventSink,
    titleHint = typeof text === "string" ? text : "",
    images: readonly ImageAttachment[] = [],
  ): Promise<StopReason> {
    const turn = this.tail.then(() => this.runTurn(text, emit, titleHint, images));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  cancel(): void {
    this.running?.abort();
  }

  /** Resolves once no turn is running or queued. */
  async idle(): Promise<void> {
    await this.tail;
  }

  /** Ends the session for good: the running turn, every background process it started, its browser, its MCP servers. */
  close(): void {
    this.prompts.cancelAll();
    this.cancel();
    this.tools.state.close();
    void this.options.mcp?.close();
  }

  private async runTurn(
    text: string | (() => string),
    emit: AgentEventSink,
    titleHint: string,
    images: readonly ImageAttachment[],
  ): Promise<StopReason> {
    if (!this.prepared.ok) {
      // The user may have fixed config.yaml or .env since: look again before giving up.
      this.prepared = prepareConversation(this.cwd, this.env, new Date(), this.options.mcp?.tools);
      const mode = this.mode;
      this.tools = this.toolEnvironment(this.hints.remember());
      this.tools.state.mode = mode;
      this.adoptHistory();
      this.adoptReasoningChoice();
      if (!this.prepared.ok) {
        emit({ type: "error", message: `Hermes is not ready: ${this.prepared.problem}` });
        return "end_turn";
      }
    }
    const controller = new AbortController();
    this.running = controller;
    // Turns are numbered by the user messages the conversation holds, so numbers go on after a reload.
    const turn = this.prepared.conversation.messages.filter((m) => m.role === "user").length + 1;
    this.tools.state.checkpoint?.startTurn(turn, (title, message) => emit({ type: "notice", title, message }));
    try {
      const stop = await this.prepared.conversation.runTurn(
        typeof text === "string" ? text : text(),
        controller.signal,
        emit,
        this.tools,
        images,
      );
      await this.save(titleHint);
      // Steers the turn did not reach (no tool call came after them) run next, as upstream's next user input.
      const undelivered = this.prepared.conversation.takeUndeliveredSteers();
      if (!controller.signal.aborted) for (const steer of undelivered) this.prompts.queueText(steer);
      return stop;
    } finally {
      if (this.running === controller) this.running = undefined;
      this.options.onTurnEnd?.();
    }
  }

  /** `/compress [focus]`, queued like a turn so it never runs under one. */
  compress(focus: string | undefined): Promise<string> {
    const job = this.tail.then(async () => {
      if (!this.prepared.ok) return `Hermes is not ready: ${this.prepared.problem}`;
      const controller = new AbortController();
      this.running = controller;
      try {
        const report = await this.prepared.conversation.compressNow(focus, controller.signal);
        await this.save("");
        return report;
      } finally {
        if (this.running === controller) this.running = undefined;
      }
    });
    this.tail = job.catch(() => undefined);
    return job;
  }

  private async save(titleHint: string): Promise<void> {
    if (!this.prepared.ok) return;
    const conversation = this.prepared.conversation;
    const replaced = conversation.compaction?.replaced === true;
    const title = await this.options.persistence?.afterTurn(conversation, titleHint, this.persistedState(), replaced);
    if (title) this.events.emit({ type: "title", title });
    if (conversation.compaction) conversation.compaction.replaced = false;
  }

  private persistedState(): PersistedSessionState {
    return {
      hints: this.hints.remember(),
      mode: this.mode,
      ...(this.reasoningChoice ? { reasoningEffort: this.reasoningChoice } : {}),
    };
  }

  /** A conversation (re)opened from config.yaml takes the level chosen in this session, if one was. */
  private adoptReasoningChoice(): void {
    if (this.reasoningChoice && this.prepared.ok) this.prepared.conversation.setReasoningEffort(this.reasoningChoice);
  }

  private adoptHistory(): void {
    if (this.pendingHistory && this.prepared.ok) {
      this.prepared.conversation.restore(this.pendingHistory);
      this.pendingHistory = undefined;
    }
  }

  private toolEnvironment(hintMemory: HintMemory | undefined): ToolEnvironment {
    const { approver, store, log } = this.options;
    return sessionToolEnvironment({
      id: this.id,
      cwd: this.cwd,
      prepared: this.prepared,
      workspace: this.workspace,
      approver,
      ...(store ? { store } : {}),
      ...(log ? { log } : {}),
      ...(hintMemory ? { hintMemory } : {}),
      recordChildUsage: (usage) => this.recordChildUsage(usage),
    });
  }
}

import type * as acp from "@agentclientprotocol/sdk";
import type {
  Attachment,
  ChatItem,
  ChatSnapshot,
  ConfigPicker,
  HostNotificationMethod,
  HostNotifications,
  PermissionItem,
  ReviewStatus,
  SlashCommand,
  ToolItem,
  ToolKind,
  Usage,
  UserItem,
} from "../../webview-ui/protocol.js";
import { pickersOf } from "./config-pickers.js";
import { diffView } from "./diff-view.js";
import { contentText, toolFields } from "./tool-fields.js";
import { clearsConversation, exchangesFrom, isConversationText } from "./turn-history.js";

export type TranscriptSink = <M extends HostNotificationMethod>(method: M, params: HostNotifications[M]) => void;

type Streamed = "user" | "agent" | "thought";

/**
 * The conversation as the chat view shows it, built from ACP session updates and owned by the extension host (the
 * webview holds no truth and is sent a snapshot whenever it opens). Streaming text crosses the bridge as deltas
 * (`chat/append`); anything else as the whole changed item. Pure: no vscode, so it is unit-tested directly.
 */
export class ChatTranscript {
  private items: ChatItem[] = [];
  private readonly indexById = new Map<string, number>();
  private readonly itemByToolCall = new Map<string, string>();
  private readonly itemByProposal = new Map<string, string>();
  private streaming: { id: string; kind: Streamed; messageId?: string } | undefined;
  private counter = 0;
  private busy = false;
  private title = "New chat";
  private commands: readonly SlashCommand[] = [];
  private pickers: readonly ConfigPicker[] = [];
  private usage: Usage | undefined;
  private attachments: readonly Attachment[] = [];
  /** The latest user message of the conversation: the one "Retry" runs again. */
  private retryable: string | undefined;

  constructor(
    private readonly sink: TranscriptSink,
    /** How a path is shown: relative to the workspace when inside it. */
    private readonly label: (path: string) => string,
    /** The output of an editor terminal embedded in a tool call (ACP sends the terminal, not its text). */
    private readonly terminalOutput: (terminalId: string) => string | undefined = () => undefined,
  ) {}

  snapshot(): ChatSnapshot {
    return {
      items: [...this.items],
      busy: this.busy,
      title: this.title,
      commands: this.commands,
      pickers: this.pickers,
      attachments: this.attachments,
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }

  get length(): number {
    return this.items.length;
  }

  item(id: string): ChatItem | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : this.items[index];
  }

  /** Empties the conversation (New Chat, another session opened); commands and pickers come again from the server. */
  reset(title = "New chat"): void {
    this.items = [];
    this.indexById.clear();
    this.itemByToolCall.clear();
    this.itemByProposal.clear();
    this.streaming = undefined;
    this.retryable = undefined;
    this.title = title;
    this.usage = undefined;
    this.sink("chat/snapshot", this.snapshot());
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    if (!busy) this.streaming = undefined;
    this.sink("chat/busy", { busy });
  }

  setAttachments(attachments: readonly Attachment[]): void {
    this.attachments = attachments;
    this.sink("chat/attachments", { attachments });
  }

  setPickers(pickers: readonly ConfigPicker[]): void {
    this.pickers = pickers;
    this.sink("chat/pickers", { pickers });
  }

  addUser(text: string, attachments: readonly Attachment[]): void {
    this.streaming = undefined;
    // After /new the server's conversation starts empty: the messages above can no longer be undone or retried.
    if (clearsConversation(text)) this.sealUserItems();
    this.addUserItem({ kind: "user", id: this.nextId(), text, attachments, canEdit: isConversationText(text) });
  }

  /** The user message "Retry" runs again, if any. */
  get retryTarget(): string | undefined {
    return this.retryable;
  }

  /** How many exchanges "Edit & resend" of user message `itemId` takes back (undefined: it cannot be edited). */
  exchangesFrom(itemId: string): number | undefined {
    return exchangesFrom(this.items, itemId);
  }

  /** Drops what follows item `itemId`, and the item itself unless `keep`, as `/retry` and `/undo` drop them. */
  truncate(itemId: string, keep: boolean): void {
    const index = this.indexById.get(itemId);
    if (index === undefined) return;
    this.items = this.items.slice(0, keep ? index + 1 : index);
    this.indexById.clear();
    this.items.forEach((item, i) => this.indexById.set(item.id, i));
    for (const map of [this.itemByToolCall, this.itemByProposal])
      for (const [key, id] of map) if (!this.indexById.has(id)) map.delete(key);
    this.streaming = undefined;
    const last = this.items.findLast((i): i is UserItem => i.kind === "user" && i.canEdit === true);
    this.retryable = last?.id;
    if (last) this.replaceQuietly({ ...last, canRetry: true });
    this.sink("chat/snapshot", this.snapshot());
  }

  /** How many user messages the chat shows: the number of the turn the latest one started. */
  get userMessages(): number {
    return this.items.filter((i) => i.kind === "user").length;
  }

  /** The end of a turn that changed files (turn `turn`), with the checkpoint that restores them to before it. */
  addCheckpoint(checkpoint: string, turn: number): void {
    this.streaming = undefined;
    this.add({ kind: "checkpoint", id: this.nextId(), checkpoint, turn });
  }

  /** A user message; one of the conversation takes "Retry" over from the one before it. */
  private addUserItem(item: UserItem): void {
    if (!item.canEdit) return this.add(item);
    const previous = this.retryable ? this.item(this.retryable) : undefined;
    if (previous?.kind === "user") this.replace({ ...previous, canRetry: false });
    this.retryable = item.id;
    this.add({ ...item, canRetry: true });
  }

  /** The server's conversation is gone (/new, a restarted server): the messages shown can no longer be taken back. */
  sealUserItems(): void {
    for (const item of this.items)
      if (item.kind === "user" && item.canEdit) this.replace({ ...item, canEdit: false, canRetry: false });
    this.retryable = undefined;
  }

  /** The setup card (no usable model); returns its id, for the verdict later. */
  addSetup(problem: string): string {
    this.streaming = undefined;
    const id = this.nextId();
    this.add({ kind: "setup", id, problem });
    return id;
  }

  /** A setup attempt's verdict on its card. */
  setSetupVerdict(id: string, verdict: string, ok: boolean): void {
    const item = this.item(id);
    if (item?.kind === "setup") this.replace({ ...item, verdict, ok });
  }

  addNotice(level: "info" | "warning" | "error", text: string): void {
    this.streaming = undefined;
    this.add({ kind: "notice", id: this.nextId(), level, text });
  }

  /** Maps one ACP session update onto the transcript. */
  apply(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        // A replayed history sends each user message whole: a new chunk is a new message unless its id says otherwise.
        if (!update.messageId || this.streaming?.messageId !== update.messageId) this.streaming = undefined;
        return this.stream("user", contentText(update.content), update.messageId ?? undefined);
      case "agent_message_chunk": {
        // Our server marks its error and notice lines (shown inline by other clients): here they are notices.
        const hermes = (update._meta as { hermes?: { error?: boolean; notice?: boolean } } | null | undefined)?.hermes;
        const text = contentText(update.content);
        if (hermes?.error) return this.addNotice("error", text.replace(/^⚠️\s*/, "").trim());
        if (hermes?.notice) return this.addNotice("warning", text.replace(/^⚠️\s*/, "").trim());
        return this.stream("agent", text);
      }
      case "agent_thought_chunk":
        return this.stream("thought", contentText(update.content));
      case "tool_call":
        return this.toolCall(update);
      case "tool_call_update":
        return this.toolCallUpdate(update);
      case "plan":
        return this.plan(update.entries);
      case "available_commands_update":
        this.commands = update.availableCommands.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.input && "hint" in c.input ? { hint: c.input.hint } : {}),
        }));
        return this.sink("chat/commands", { commands: this.commands });
      case "config_option_update":
        return this.setPickers(pickersOf(update.configOptions));
      case "current_mode_update":
        return this.setPickers(
          this.pickers.map((p) => (p.id === "mode" ? { ...p, currentValue: update.currentModeId } : p)),
        );
      case "usage_update":
        this.usage = {
          used: update.used,
          size: update.size,
          ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}),
        };
        return this.sink("chat/usage", { usage: this.usage });
      case "session_info_update":
        if (typeof update.title === "string" && update.title) {
          this.title = update.title;
          this.sink("chat/title", { title: update.title });
        }
        return;
      case "notice":
        return this.addNotice(
          update.severity === "error" ? "error" : update.severity === "warning" ? "warning" : "info",
          [update.title, update.description].filter(Boolean).join(": "),
        );
      default:
        return;
    }
  }

  /** A permission request as a card with the agent's own options; answer it with `answerPermission`. */
  addPermission(request: acp.RequestPermissionRequest): string {
    this.streaming = undefined;
    const call = request.toolCall;
    const known = this.itemByToolCall.get(call.toolCallId);
    const tool = known ? (this.item(known) as ToolItem | undefined) : undefined;
    const item: PermissionItem = {
      kind: "permission",
      id: this.nextId(),
      title: call.title ?? tool?.title ?? "Hermes asks for permission",
      toolKind: (call.kind as ToolKind | null | undefined) ?? tool?.toolKind ?? "other",
      detail:
        (call.content ?? [])
          .map((c) => (c.type === "content" ? contentText(c.content) : ""))
          .filter(Boolean)
          .join("\n") ||
        (tool?.output ?? ""),
      diffs: (call.content ?? []).flatMap((c) =>
        c.type === "diff" ? [diffView(c.path, this.label(c.path), c.oldText ?? null, c.newText)] : [],
      ),
      options: request.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
    };
    this.add(item);
    return item.id;
  }

  answerPermission(itemId: string, answer: string): void {
    const item = this.item(itemId);
    if (item?.kind === "permission" && item.answer === undefined) this.replace({ ...item, answer });
  }

  /**
   * An edit waiting for review in the editor: shown on the tool card that made it (the latest unfinished card about
   * that file), or as a card of its own.
   */
  addReview(proposalId: string, path: string, base: string | null, proposed: string): void {
    const diff = diffView(path, this.label(path), base, proposed);
    const review = { proposalId, status: "pending" as const };
    const shown = this.itemByProposal.get(proposalId);
    const again = shown ? this.item(shown) : undefined;
    if (again?.kind === "review") return this.replace({ ...again, diff, review });
    if (again?.kind === "tool")
      return this.replace({ ...again, diffs: [...again.diffs.filter((d) => d.path !== path), diff], review });
    const card = [...this.items]
      .reverse()
      .find(
        (i): i is ToolItem =>
          i.kind === "tool" &&
          i.status !== "completed" &&
          i.status !== "failed" &&
          !i.review &&
          (i.diffs.some((d) => d.path === path) || i.locations.some((l) => l.path === path)),
      );
    if (card) {
      this.itemByProposal.set(proposalId, card.id);
      this.replace({ ...card, diffs: [...card.diffs.filter((d) => d.path !== path), diff], review });
      return;
    }
    const id = this.nextId();
    this.itemByProposal.set(proposalId, id);
    this.add({ kind: "review", id, diff, review });
  }

  setReviewStatus(proposalId: string, status: ReviewStatus): void {
    const id = this.itemByProposal.get(proposalId);
    const item = id ? this.item(id) : undefined;
    if ((item?.kind === "tool" || item?.kind === "review") && item.review)
      this.replace({ ...item, review: { proposalId, status } });
  }

  private stream(kind: Streamed, text: string, messageId?: string): void {
    if (!text) return;
    const current = this.streaming?.kind === kind ? this.item(this.streaming.id) : undefined;
    if (current) {
      this.replaceQuietly(appendText(current, text));
      this.sink("chat/append", { id: current.id, text });
      return;
    }
    const id = this.nextId();
    // A user message from the server (a /queue text it runs, a replayed history) is one of the conversation.
    if (kind === "user") this.addUserItem({ kind, id, text, attachments: [], canEdit: true });
    else this.add(kind === "agent" ? { kind, id, markdown: text } : { kind, id, text });
    this.streaming = { id, kind, ...(messageId ? { messageId } : {}) };
  }

  private toolCall(call: acp.ToolCall): void {
    this.streaming = undefined;
    const id = this.nextId();
    this.itemByToolCall.set(call.toolCallId, id);
    this.add(
      toolFields(
        {
          kind: "tool",
          id,
          toolKind: "other",
          title: call.title,
          status: "pending",
          locations: [],
          output: "",
          diffs: [],
        },
        call,
        this.label,
        this.terminalOutput,
      ),
    );
  }

  private toolCallUpdate(update: acp.ToolCallUpdate): void {
    const id = this.itemByToolCall.get(update.toolCallId);
    const item = id ? this.item(id) : undefined;
    if (item?.kind !== "tool") return;
    this.replace(toolFields(item, update, this.label, this.terminalOutput));
  }

  private plan(entries: readonly acp.PlanEntry[]): void {
    this.streaming = undefined;
    const plan = entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority }));
    // One live checklist per turn: the plan since the user last spoke is updated in place.
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (item.kind === "user") break;
      if (item.kind === "plan") return this.replace({ ...item, entries: plan });
    }
    this.add({ kind: "plan", id: this.nextId(), entries: plan });
  }

  private nextId(): string {
    return `i${++this.counter}`;
  }

  private add(item: ChatItem): void {
    this.indexById.set(item.id, this.items.length);
    this.items.push(item);
    this.sink("chat/item", { item });
  }

  private replace(item: ChatItem): void {
    this.replaceQuietly(item);
    this.sink("chat/item", { item });
  }

  private replaceQuietly(item: ChatItem): void {
    const index = this.indexById.get(item.id);
    if (index !== undefined) this.items[index] = item;
  }
}

function appendText(item: ChatItem, text: string): ChatItem {
  if (item.kind === "agent") return { ...item, markdown: item.markdown + text };
  if (item.kind === "user" || item.kind === "thought") return { ...item, text: item.text + text };
  return item;
}

/**
 * The chat view's typed bridge between the extension host and the webview. The host owns the conversation; the view
 * renders what it is sent and asks the host to act. Both sides speak JSON-RPC (vscode-jsonrpc) over postMessage, so
 * requests get answers, errors and cancellation without a hand-written protocol. Every method is listed here with its
 * params and result: one map per direction, no `any` payloads.
 */

// ---------------------------------------------------------------------------------------------------------------------
// The conversation as the view shows it
// ---------------------------------------------------------------------------------------------------------------------

/** Something the user added to the next prompt (or that a sent prompt carried). */
export interface Attachment {
  readonly id: string;
  readonly kind: "file" | "selection" | "image";
  /** What the chip shows: `src/a.ts`, `src/a.ts:3-9`, `screenshot.png`. */
  readonly label: string;
  /** The file's URI (files and selections), for "open". */
  readonly uri?: string;
}

export type ToolKind =
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "execute"
  | "think"
  | "fetch"
  | "switch_mode"
  | "other";
export type ToolStatus = "pending" | "in_progress" | "completed" | "failed";

export interface FileLocation {
  readonly path: string;
  /** What the view shows: the path relative to the workspace when inside it. */
  readonly label: string;
  /** 1-based. */
  readonly line?: number;
}

export interface DiffLine {
  readonly type: "add" | "remove" | "context";
  readonly text: string;
}

export interface DiffHunk {
  /** `@@ -3,4 +3,6 @@` */
  readonly header: string;
  readonly lines: readonly DiffLine[];
}

/** An edit as a diff computed once by the host (jsdiff): the same hunks the editor's per-hunk review uses. */
export interface DiffView {
  readonly path: string;
  readonly label: string;
  /** The file is new (no old text) or deleted (no new text). */
  readonly change: "create" | "modify" | "delete";
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
}

/** Where a reviewed edit stands: pending until the user decides in the editor or in the chat. */
export type ReviewStatus = "pending" | "accepted" | "rejected" | "partial" | "superseded";

export interface ReviewState {
  readonly proposalId: string;
  readonly status: ReviewStatus;
}

interface ItemBase {
  /** Unique in the transcript, stable across replays. */
  readonly id: string;
}

export interface UserItem extends ItemBase {
  readonly kind: "user";
  readonly text: string;
  readonly attachments: readonly Attachment[];
  /** The message is in the model's conversation (not a command the server answered), so it can be edited and sent again. */
  readonly canEdit?: boolean;
  /** The latest such message: "Retry" runs it again. */
  readonly canRetry?: boolean;
}

/** The agent's reply, Markdown streamed as it arrives (the view sanitises it before it reaches the DOM). */
export interface AgentItem extends ItemBase {
  readonly kind: "agent";
  readonly markdown: string;
}

export interface ThoughtItem extends ItemBase {
  readonly kind: "thought";
  readonly text: string;
}

/** Image types a tool card shows; anything else stays a placeholder in the output. */
export const TOOL_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

export interface ToolImage {
  readonly mimeType: (typeof TOOL_IMAGE_TYPES)[number];
  readonly data: string;
}

export interface ToolItem extends ItemBase {
  readonly kind: "tool";
  readonly toolKind: ToolKind;
  readonly title: string;
  readonly status: ToolStatus;
  readonly locations: readonly FileLocation[];
  /** Text output (terminal output, results), shown collapsed. */
  readonly output: string;
  readonly diffs: readonly DiffView[];
  /** Pictures the tool showed (a browser screenshot), as base64 of one of TOOL_IMAGE_TYPES. */
  readonly images?: readonly ToolImage[];
  /** Set while (and after) an edit of this call waits for the user's review. */
  readonly review?: ReviewState;
}

export interface PlanEntry {
  readonly content: string;
  readonly status: "pending" | "in_progress" | "completed";
  readonly priority: "high" | "medium" | "low";
}

export interface PlanItem extends ItemBase {
  readonly kind: "plan";
  readonly entries: readonly PlanEntry[];
}

export interface PermissionOption {
  readonly optionId: string;
  readonly name: string;
  readonly kind: "allow_once" | "allow_always" | "reject_once" | "reject_always";
}

/** The agent asks before it acts; the card offers the agent's own options. */
export interface PermissionItem extends ItemBase {
  readonly kind: "permission";
  readonly title: string;
  readonly toolKind: ToolKind;
  /** The command or edit in question, when the agent said. */
  readonly detail: string;
  readonly diffs: readonly DiffView[];
  readonly options: readonly PermissionOption[];
  /** The chosen option's id, or "cancelled"; absent while pending. */
  readonly answer?: string;
}

/** An edit proposed outside any tool card (or whose tool card is gone), reviewed on its own. */
export interface ReviewItem extends ItemBase {
  readonly kind: "review";
  readonly diff: DiffView;
  readonly review: ReviewState;
}

/** The end of a turn that changed files: the workspace as it was before it can be restored from here. */
export interface CheckpointItem extends ItemBase {
  readonly kind: "checkpoint";
  /** The server's checkpoint id (`_meta.hermes.checkpoint.id` of the prompt response). */
  readonly checkpoint: string;
  /** The turn's number in this chat (its user message's), for titles such as "Restore to before turn 3". */
  readonly turn: number;
}

/** No usable model yet (the server answered auth_required): set one up from the chat. */
export interface SetupItem extends ItemBase {
  readonly kind: "setup";
  /** What the server said is missing (no model, no key, …). */
  readonly problem: string;
  /** The last attempt's verdict ("Works: … answered", "Failed: …"), once there is one. */
  readonly verdict?: string;
  readonly ok?: boolean;
}

export interface NoticeItem extends ItemBase {
  readonly kind: "notice";
  readonly level: "info" | "warning" | "error";
  readonly text: string;
}

export type ChatItem =
  | UserItem
  | AgentItem
  | ThoughtItem
  | ToolItem
  | PlanItem
  | PermissionItem
  | ReviewItem
  | CheckpointItem
  | SetupItem
  | NoticeItem;

// ---------------------------------------------------------------------------------------------------------------------
// Session-wide state
// ---------------------------------------------------------------------------------------------------------------------

export interface SlashCommand {
  readonly name: string;
  readonly description: string;
  /** What to type after the command, when it takes input. */
  readonly hint?: string;
}

export interface ConfigChoice {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
}

/** A picker from the session's config options (mode, model). */
export interface ConfigPicker {
  readonly id: string;
  readonly name: string;
  readonly currentValue: string;
  readonly choices: readonly ConfigChoice[];
}

export interface Usage {
  /** Tokens in the context window after the last model call. */
  readonly used: number;
  /** The context window's size. */
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
}

export interface SessionSummary {
  readonly sessionId: string;
  readonly title: string;
  /** ISO 8601. */
  readonly updatedAt?: string;
  readonly current: boolean;
}

/** Everything the view needs to draw itself from scratch: sent when it (re)opens and on New Chat / session switch. */
export interface ChatSnapshot {
  readonly items: readonly ChatItem[];
  readonly busy: boolean;
  readonly title: string;
  readonly commands: readonly SlashCommand[];
  readonly pickers: readonly ConfigPicker[];
  readonly usage?: Usage;
  readonly attachments: readonly Attachment[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Host → webview (notifications: the view never answers)
// ---------------------------------------------------------------------------------------------------------------------

export interface HostNotifications {
  /** Replace everything (view opened, New Chat, another session loaded). */
  "chat/snapshot": ChatSnapshot;
  /** Add an item, or replace the item with the same id. */
  "chat/item": { readonly item: ChatItem };
  /** Streaming: append text to an agent item's markdown, a thought's text or a tool's output. Only deltas cross. */
  "chat/append": { readonly id: string; readonly text: string };
  "chat/busy": { readonly busy: boolean };
  "chat/title": { readonly title: string };
  "chat/commands": { readonly commands: readonly SlashCommand[] };
  "chat/pickers": { readonly pickers: readonly ConfigPicker[] };
  "chat/usage": { readonly usage: Usage };
  "chat/attachments": { readonly attachments: readonly Attachment[] };
  /** Focus the composer (after "Add to Chat" commands, or when the view is revealed for a permission). */
  "chat/focus": { readonly target: "composer" | "permission" };
}

// ---------------------------------------------------------------------------------------------------------------------
// Webview → host (requests: each resolves when the host has acted, or rejects with a readable message)
// ---------------------------------------------------------------------------------------------------------------------

export interface FileMatch {
  readonly uri: string;
  /** Workspace-relative path, what the user types after @ (or the label of an editor context: problems, a symbol). */
  readonly path: string;
  /** The text inserted instead of `@file:path` (`@problems `, a symbol's `@file:path:12-30 `). */
  readonly reference?: string;
}

export interface HostRequests {
  /** The view is up: the host answers with the whole state (and streams from then on). */
  "view/ready": { params: Record<string, never>; result: ChatSnapshot };
  /**
   * Send a prompt with the pending attachments. Resolves once the turn started (not when it ends). With `replaces`
   * (a user message's item id), that message and everything after it are undone first ("Edit & resend").
   */
  "chat/prompt": { params: { readonly text: string; readonly replaces?: string }; result: void };
  /** Run the latest user message again, replacing its reply. */
  "chat/retry": { params: Record<string, never>; result: void };
  /** Preview and, once the user confirms, restore the files to a checkpoint item's turn. Resolves when done or declined. */
  "checkpoint/restore": { params: { readonly itemId: string }; result: void };
  /** The setup card's buttons: set a model up here (questions, then a test call), in a terminal, or a keychain key. */
  "setup/start": { params: { readonly itemId: string; readonly how: "here" | "terminal" | "key" }; result: void };
  "chat/cancel": { params: Record<string, never>; result: void };
  "chat/new": { params: Record<string, never>; result: void };
  "permission/answer": { params: { readonly itemId: string; readonly optionId: string | null }; result: void };
  "review/decide": { params: { readonly proposalId: string; readonly accept: boolean }; result: void };
  "review/openDiff": { params: { readonly proposalId: string }; result: void };
  /** Open a file at a line in the editor (tool locations, diff headers). */
  "open/location": { params: { readonly path: string; readonly line?: number }; result: void };
  /** Open a link from model output outside the webview (http/https/mailto only; the host checks). */
  "open/link": { params: { readonly href: string }; result: void };
  /** @-mention completion: workspace files whose path contains `query`. */
  "files/search": { params: { readonly query: string }; result: { readonly files: readonly FileMatch[] } };
  "attachments/addFile": { params: { readonly uri: string }; result: void };
  /** Attach the active editor's selection, or the whole file when nothing is selected. */
  "attachments/addActive": { params: Record<string, never>; result: void };
  /** An image pasted or dropped into the composer (base64 without the data: prefix). */
  "attachments/addImage": {
    params: { readonly name: string; readonly mimeType: string; readonly data: string };
    result: void;
  };
  "attachments/remove": { params: { readonly id: string }; result: void };
  "config/set": { params: { readonly pickerId: string; readonly value: string }; result: void };
  "sessions/list": { params: Record<string, never>; result: { readonly sessions: readonly SessionSummary[] } };
  "sessions/open": { params: { readonly sessionId: string }; result: void };
}

export type HostRequestMethod = keyof HostRequests;
export type HostNotificationMethod = keyof HostNotifications;

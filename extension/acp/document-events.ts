import type * as acp from "@agentclientprotocol/sdk";
import type { AgentCapabilities as NesAgentCapabilities } from "@agentclientprotocol/sdk/experimental/nes";
import * as vscode from "vscode";

// Editor switches and cursor moves come in bursts; one event per quiet spell is all the agent needs.
const DEBOUNCE_MS = 150;
// `document/didOpen` must carry the text. The agent only reads the URI, so a huge file is not worth tens of MB on
// the wire: it is named by `didFocus` instead when the user looks at it.
const MAX_OPEN_TEXT_CHARS = 1_000_000;

/** Which document events the agent asked for (ACP's unstable `nes` capability); undefined when none we send. */
export interface WantedDocumentEvents {
  readonly didOpen: boolean;
  readonly didFocus: boolean;
  readonly didClose: boolean;
}

export function wantedDocumentEvents(capabilities: acp.AgentCapabilities): WantedDocumentEvents | undefined {
  const document = (capabilities as NesAgentCapabilities).nes?.events?.document;
  if (!document) return undefined;
  const wanted = {
    didOpen: Boolean(document.didOpen),
    didFocus: Boolean(document.didFocus),
    didClose: Boolean(document.didClose),
  };
  return wanted.didOpen || wanted.didFocus ? wanted : undefined;
}

/** Sends one notification to the agent. */
export type NotifyAgent = (method: string, params: Record<string, unknown>) => Promise<void>;

/**
 * Tells the agent which workspace files the user has on screen and which one they are in (`document/didOpen`,
 * `document/didFocus`, `document/didClose`), so the folders they work in bring their AGENTS.md hints into the next
 * turn. Only files of the workspace's folders on disk (`file:`) are named, never output panels, git revisions,
 * review previews or untitled buffers. "Opened" means shown in an editor: documents extensions open behind the
 * scenes (our own review reads files that way) are not the user's doing.
 */
export class DocumentEvents implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  /** URIs the agent was sent `didOpen` for (and not `didClose` since). */
  private readonly opened = new Set<string>();
  /** The last focus sent (document and cursor), and its document alone. */
  private lastFocus: string | undefined;
  private lastFocusUri: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly notify: NotifyAgent,
    private readonly sessionId: () => string,
    private readonly wanted: WantedDocumentEvents,
    private readonly log: (line: string) => void,
  ) {
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule()),
      vscode.window.onDidChangeTextEditorSelection(
        (e) => e.textEditor === vscode.window.activeTextEditor && this.schedule(),
      ),
      vscode.workspace.onDidCloseTextDocument((document) => this.closed(document)),
    ];
    this.schedule();
  }

  /** A new session knows nothing yet: tell it what is on screen. */
  resync(): void {
    this.opened.clear();
    this.lastFocus = undefined;
    this.lastFocusUri = undefined;
    this.schedule();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), DEBOUNCE_MS);
  }

  private flush(): void {
    if (this.wanted.didOpen) {
      for (const editor of vscode.window.visibleTextEditors) {
        const document = editor.document;
        const uri = document.uri.toString();
        // The length from the line table: getText() would copy a huge file on every debounce just to skip it.
        if (this.opened.has(uri) || !isWorkspaceFile(document.uri) || textLength(document) > MAX_OPEN_TEXT_CHARS)
          continue;
        this.opened.add(uri);
        this.log(`document/didOpen ${vscode.workspace.asRelativePath(document.uri)}`);
        this.send("document/didOpen", {
          uri,
          languageId: document.languageId,
          version: document.version,
          text: document.getText(),
        });
      }
    }
    const editor = vscode.window.activeTextEditor;
    if (!this.wanted.didFocus || !editor || !isWorkspaceFile(editor.document.uri)) return;
    const uri = editor.document.uri.toString();
    const cursor = editor.selection.active;
    const key = `${uri}#${cursor.line}:${cursor.character}`;
    if (key === this.lastFocus) return;
    this.lastFocus = key;
    // Cursor moves within a file are not worth a log line; switching files is.
    if (uri !== this.lastFocusUri)
      this.log(`document/didFocus ${vscode.workspace.asRelativePath(editor.document.uri)}`);
    this.lastFocusUri = uri;
    const visible = editor.visibleRanges[0] ?? editor.selection;
    this.send("document/didFocus", {
      uri,
      version: editor.document.version,
      position: { line: cursor.line, character: cursor.character },
      visibleRange: {
        start: { line: visible.start.line, character: visible.start.character },
        end: { line: visible.end.line, character: visible.end.character },
      },
    });
  }

  private closed(document: vscode.TextDocument): void {
    const uri = document.uri.toString();
    if (!this.opened.delete(uri) || !this.wanted.didClose) return;
    this.log(`document/didClose ${vscode.workspace.asRelativePath(document.uri)}`);
    this.send("document/didClose", { uri });
  }

  private send(method: string, params: Record<string, unknown>): void {
    // A notification that cannot be written means the server is gone; the chat reports that on its own.
    this.notify(method, { sessionId: this.sessionId(), ...params }).catch(() => undefined);
  }
}

function isWorkspaceFile(uri: vscode.Uri): boolean {
  return uri.scheme === "file" && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

function textLength(document: vscode.TextDocument): number {
  return document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
}

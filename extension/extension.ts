import * as vscode from "vscode";
import { COMMON_KEY_VARIABLES, SecretEnv } from "./acp/secret-env.js";
import { ChatPanels } from "./chat/chat-panels.js";
import { ChatSession } from "./chat/chat-session.js";
import { ChatViewProvider } from "./chat/chat-view.js";
import { CHECKPOINT_SCHEME } from "./chat/checkpoint-restore.js";
import { openSetupTerminal } from "./chat/setup-offer.js";
import { askToFix, FIX_COMMAND, FixWithHermes } from "./editor-context/fix-with-hermes.js";
import { TerminalOutput } from "./editor-context/terminal-output.js";
import { addTerminalSelection } from "./editor-context/terminal-selection.js";
import { REVIEW_SCHEME } from "./review/preview-documents.js";
import { ReviewController } from "./review/review-controller.js";
import { HermesStatusBar } from "./status-bar.js";

/** What the extension exposes to its integration tests (and to other extensions): the chat and the review. */
export interface HermesApi {
  readonly chat: ChatSession;
  readonly review: ReviewController;
  readonly statusBar: HermesStatusBar;
  /** Chats in editor tabs. */
  readonly panels: ChatPanels;
}

/** Wiring only: the chat, the review of edits, and their commands. */
export function activate(context: vscode.ExtensionContext): HermesApi {
  const log = vscode.window.createOutputChannel("Hermes");
  const review = new ReviewController();
  const secrets = new SecretEnv(context);
  const configured = vscode.workspace.getConfiguration("hermes").get<string>("serverPath");
  // In an untrusted workspace `hermes.serverPath` is a restricted setting: VS Code hands us the default instead.
  const serverPath = configured || context.asAbsolutePath("dist/acp-server.js");
  const terminalOutput = new TerminalOutput();
  const chatOptions = { serverPath, log, review, secrets, terminalOutput };
  const chat = new ChatSession(chatOptions);
  const panels = new ChatPanels(context.extensionUri, chatOptions);
  const view = new ChatViewProvider(context.extensionUri, chat, log);
  const statusBar = new HermesStatusBar(chat);

  const command = (id: string, run: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, run);
  context.subscriptions.push(
    log,
    review,
    chat,
    view,
    statusBar,
    terminalOutput,
    panels,
    vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, review.documents),
    vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, chat.checkpoints.documents),
    vscode.languages.registerCodeLensProvider({ scheme: REVIEW_SCHEME }, review),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, view),
    vscode.languages.registerCodeActionsProvider({ scheme: "file" }, new FixWithHermes(), {
      providedCodeActionKinds: FixWithHermes.kinds,
    }),
    command("hermes.addTerminalSelection", () => addTerminalSelection(chat, () => void view.reveal("composer"))),
    command("hermes.setup", async () => openSetupTerminal(serverPath, await secrets.env())),
    command(FIX_COMMAND, (uri: vscode.Uri, diagnostic: vscode.Diagnostic) =>
      askToFix(chat, () => void view.reveal("composer"), uri, diagnostic),
    ),
    command("hermes.newChat", () => chat.newChat()),
    command("hermes.openChatInEditor", () => void panels.openChat()),
    command("hermes.cancel", () => chat.cancel()),
    command("hermes.acceptEdit", () => review.decideActive(true)),
    command("hermes.rejectEdit", () => review.decideActive(false)),
    command("hermes.acceptAll", () => review.decideEverything(true)),
    command("hermes.rejectAll", () => review.decideEverything(false)),
    command("hermes.acceptHunk", (id: string, index: number) => review.decideHunk(id, index, true)),
    command("hermes.rejectHunk", (id: string, index: number) => review.decideHunk(id, index, false)),
    command("hermes.showLog", () => log.show()),
    command("hermes.addFile", (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (target) {
        chat.attachFile(target);
        void view.reveal("composer");
      }
    }),
    command("hermes.addSelection", () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty)
        return void vscode.window.showInformationMessage("Select some text first.");
      chat.attachSelection(
        editor.document.uri,
        editor.document.getText(editor.selection),
        editor.selection.start.line,
        editor.selection.end.line,
      );
      void view.reveal("composer");
    }),
    command("hermes.setApiKey", async () => {
      const name = await vscode.window.showQuickPick([...COMMON_KEY_VARIABLES, "Other…"], { title: "Which API key?" });
      if (!name) return;
      const variable =
        name === "Other…"
          ? await vscode.window.showInputBox({ prompt: "Environment variable name, e.g. GROQ_API_KEY" })
          : name;
      if (!variable) return;
      const value = await vscode.window.showInputBox({
        prompt: `Value of ${variable}`,
        password: true,
        ignoreFocusOut: true,
      });
      if (!value) return;
      await secrets.set(variable, value);
      void vscode.window.showInformationMessage(
        `${variable} saved in the system keychain. It applies from the next chat (Hermes: New Chat).`,
      );
    }),
  );
  return { chat, review, statusBar, panels };
}

export function deactivate(): void {}

import * as vscode from "vscode";
import type { ConfigPicker } from "../webview-ui/protocol.js";
import type { ChatSession } from "./chat/chat-session.js";

/**
 * The status bar item: the model and mode of the chat's session, a spinner while a turn runs, and whether the server
 * is up. A click opens the chat. It follows the chat's own notifications (no polling) and keeps only what it shows:
 * streamed deltas (`chat/append`) are skipped, so a long reply costs it nothing.
 */
export class HermesStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("hermes.status", vscode.StatusBarAlignment.Right, 100);
  private readonly subscription: vscode.Disposable;
  private busy: boolean;
  private pickers: readonly ConfigPicker[];

  constructor(private readonly chat: ChatSession) {
    ({ busy: this.busy, pickers: this.pickers } = chat.snapshot);
    this.item.name = "Hermes";
    this.item.command = "hermes.chat.focus";
    this.subscription = chat.subscribe((method, params) => {
      if (method === "chat/append") return;
      if (method === "chat/busy" || method === "chat/snapshot") this.busy = (params as { busy: boolean }).busy;
      if (method === "chat/pickers" || method === "chat/snapshot")
        this.pickers = (params as { pickers: readonly ConfigPicker[] }).pickers;
      // Anything else may follow a server start or exit (the pickers arrive, a notice is added): look again.
      this.update();
    });
    this.update();
    this.item.show();
  }

  /** The text shown now (for tests: what the user reads in the status bar). */
  get text(): string {
    return this.item.text;
  }

  private update(): void {
    const { busy, pickers } = this;
    const model = chosen(pickers, "model");
    const mode = chosen(pickers, "mode");
    const connected = this.chat.serverPid !== undefined;
    const icon = busy ? "$(loading~spin)" : connected ? "$(hubot)" : "$(circle-slash)";
    this.item.text = `${icon} Hermes${model ? `: ${model}` : ""}${mode ? ` · ${mode}` : ""}`;
    this.item.tooltip = [
      connected ? "Hermes is running." : "Hermes starts with your first message.",
      model ? `Model: ${model}` : undefined,
      mode ? `Mode: ${mode}` : undefined,
      busy ? "Answering…" : undefined,
      "Click to open the chat.",
    ]
      .filter(Boolean)
      .join("\n");
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** The name of the value a picker has chosen (the model's name, the mode's name). */
function chosen(pickers: readonly ConfigPicker[], id: string): string | undefined {
  const picker = pickers.find((p) => p.id === id);
  return picker?.choices.find((c) => c.value === picker.currentValue)?.name ?? picker?.currentValue;
}

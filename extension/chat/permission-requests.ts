import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { ChatTranscript } from "./chat-transcript.js";

/**
 * Permission requests from the agent, answered from their cards in the chat. The agent waits for the answer; a
 * cancelled turn (or a server that went away) answers every open request with "cancelled", as ACP asks.
 */
export class PermissionRequests implements vscode.Disposable {
  private readonly open = new Map<string, (response: acp.RequestPermissionResponse) => void>();
  private readonly countChanged = new vscode.EventEmitter<number>();
  /** Fires with the number of requests awaiting an answer (the view shows a badge while it is hidden). */
  readonly onDidChangeCount = this.countChanged.event;

  constructor(private readonly transcript: ChatTranscript) {}

  get count(): number {
    return this.open.size;
  }

  /** Shows the card and resolves with the user's answer; a withdrawn question (`signal`) closes its card. */
  ask(request: acp.RequestPermissionRequest, signal?: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const itemId = this.transcript.addPermission(request);
    return new Promise((resolve) => {
      const onAbort = () => this.answer(itemId, null);
      this.open.set(itemId, (response) => {
        signal?.removeEventListener("abort", onAbort);
        this.open.delete(itemId);
        this.transcript.answerPermission(
          itemId,
          response.outcome.outcome === "selected" ? response.outcome.optionId : "cancelled",
        );
        this.countChanged.fire(this.open.size);
        resolve(response);
      });
      this.countChanged.fire(this.open.size);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The user picked an option on the card (null: dismissed). Unknown or already answered cards are ignored. */
  answer(itemId: string, optionId: string | null): void {
    this.open.get(itemId)?.(
      optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } },
    );
  }

  cancelAll(): void {
    for (const resolve of [...this.open.values()]) resolve({ outcome: { outcome: "cancelled" } });
  }

  dispose(): void {
    this.cancelAll();
    this.countChanged.dispose();
  }
}

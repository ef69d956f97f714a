import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { ChatTranscript } from "./chat-transcript.js";
import { askSetupAnswers, runSetup, type SetupAnswers, type SetupVerdict } from "./setup-here.js";
import { openSetupTerminal } from "./setup-offer.js";

/** What the setup needs of its chat: where it shows, how the keys and the server are found, how a prompt re-runs. */
export interface SetupHost {
  readonly transcript: ChatTranscript;
  readonly serverPath: string;
  readonly env: () => Promise<Record<string, string>>;
  /** Runs the prompt that met "no model" again (its message is already in the chat). */
  readonly rerun: (prompt: acp.ContentBlock[]) => Promise<unknown>;
}

/**
 * A first run without a model: the server answered auth_required, so the chat shows a setup card with what is
 * missing. "Set up here" asks for a provider, a model and a key with VS Code's pickers and runs the server's own
 * `--setup` with them (written to HERMES_HOME, then one test call); when the model answers, the prompt that was
 * waiting runs. "In terminal" opens the same setup interactively; "Set API key" stores a key in the keychain and
 * tries the prompt again.
 */
export class SetupFlow {
  private card: { readonly id: string; readonly prompt: acp.ContentBlock[] } | undefined;

  constructor(private readonly host: SetupHost) {}

  offer(problem: string, prompt: acp.ContentBlock[]): void {
    // The server never received the message above: Retry and Edit & resend have no exchange to take back.
    this.host.transcript.sealUserItems();
    this.card = { id: this.host.transcript.addSetup(problem), prompt };
  }

  async start(itemId: string, how: "here" | "terminal" | "key"): Promise<void> {
    if (how === "terminal") return void openSetupTerminal(this.host.serverPath, await this.host.env());
    if (how === "key") {
      await vscode.commands.executeCommand("hermes.setApiKey");
      return this.rerunWaiting(itemId);
    }
    const answers = await askSetupAnswers();
    if (answers) await this.complete(itemId, answers);
  }

  /** Sets the model up with these answers (the pickers' or a test's), shows the verdict, and runs the waiting prompt. */
  async complete(itemId: string, answers: SetupAnswers): Promise<SetupVerdict> {
    const result = await runSetup(this.host.serverPath, await this.host.env(), answers);
    this.host.transcript.setSetupVerdict(itemId, result.verdict, result.ok);
    if (result.ok) await this.rerunWaiting(itemId);
    return result;
  }

  private async rerunWaiting(itemId: string): Promise<void> {
    if (this.card?.id !== itemId) return;
    const { prompt } = this.card;
    this.card = undefined;
    // A failure is shown by the run itself (another card when a model is still missing).
    await this.host.rerun(prompt).catch(() => undefined);
  }
}

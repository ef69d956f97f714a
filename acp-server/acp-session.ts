import type { Env } from "../agent/config/hermes-home.js";
import type { AgentEventSink, StopReason } from "../agent/loop/events.js";
import { prepareConversation, type PreparedConversation } from "../agent/session/open-conversation.js";

/**
 * One ACP session: its working directory, its conversation, and the turn in flight. Prompts are serialised (a
 * prompt sent while a turn runs waits for it), and `cancel` aborts the running turn and everything under it.
 */
export class AcpSession {
  private prepared: PreparedConversation;
  private tail: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly env: Env,
    prepared: PreparedConversation,
  ) {
    this.prepared = prepared;
  }

  get ready(): PreparedConversation {
    return this.prepared;
  }

  /** Runs a turn after any earlier one. `onProblem` hears why the session cannot talk to a model yet. */
  prompt(text: string, emit: AgentEventSink): Promise<StopReason> {
    const turn = this.tail.then(() => this.runTurn(text, emit));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  cancel(): void {
    this.running?.abort();
  }

  private async runTurn(text: string, emit: AgentEventSink): Promise<StopReason> {
    if (!this.prepared.ok) {
      // The user may have fixed config.yaml or .env since: look again before giving up.
      this.prepared = prepareConversation(this.cwd, this.env);
      if (!this.prepared.ok) {
        emit({ type: "error", message: `Hermes is not ready: ${this.prepared.problem}` });
        return "end_turn";
      }
    }
    const controller = new AbortController();
    this.running = controller;
    try {
      return await this.prepared.conversation.runTurn(text, controller.signal, emit);
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }
}

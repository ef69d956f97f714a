import type { Env } from "../agent/config/hermes-home.js";
import type { AgentEventSink, StopReason } from "../agent/loop/events.js";
import { prepareConversation, type PreparedConversation } from "../agent/session/open-conversation.js";
import { startupNotices, type StartupNotice } from "./startup-notices.js";

/**
 * One ACP session: its working directory, its conversation, and the turn in flight. Prompts are serialised (a
 * prompt sent while a turn runs waits for it), and `cancel` aborts the running turn and everything under it.
 */
export class AcpSession {
  private prepared: PreparedConversation;
  private tail: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;
  /** Settles once the session's first updates (commands, notices) are out; prompt updates must follow them. */
  announced: Promise<void> = Promise.resolve();
  /** Startup notices not yet shown (clients without `session.notices` see them at the top of the first reply). */
  private unshownNotices: StartupNotice[];

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly env: Env,
    prepared: PreparedConversation,
  ) {
    this.prepared = prepared;
    this.unshownNotices = startupNotices(prepared.systemPrompt.report);
  }

  /** Hands over the notices not shown yet, once. */
  takeNotices(): StartupNotice[] {
    return this.unshownNotices.splice(0);
  }

  get ready(): PreparedConversation {
    return this.prepared;
  }

  /** Runs a turn after any earlier one; a problem that keeps the session from a model is reported as an error event. */
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

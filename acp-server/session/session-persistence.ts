import {
  type Conversation,
  type HintMemory,
  type SessionStore,
  toolNamesOf,
  toStoredMessages,
} from "../../agent/index.js";
import type { Logger } from "../rpc/log.js";

const TITLE_CHARS = 60;

/** The state of a session that must survive a reload besides its messages. */
export interface PersistedSessionState {
  readonly hints?: HintMemory;
  /** The session's mode (upstream gap 7: the Python adapter forgets it on reload). */
  readonly mode?: string;
  /** The Thinking level chosen in the session, kept like the mode (absent: config.yaml's applies). */
  readonly reasoningEffort?: string;
}

/**
 * Writes one session's history to the store: after every turn, the messages the turn added (or the whole history
 * when compression replaced it), the title on the first turn, and the hint memory. `afterTurn` resolves once all of
 * it is in the journal, so a turn whose prompt has returned survives a SIGKILL.
 */
export class SessionPersistence {
  /** History entries already saved, and the next free sequence number (replaced rows keep theirs, inactive). */
  private savedLength: number;
  private nextSeq: number;
  private titled: boolean;
  private userTitle: string | undefined;

  constructor(
    /** Opening the store may still be under way: a new session does not wait for it. */
    private readonly store: Promise<SessionStore>,
    private readonly sessionId: string,
    private readonly log: Logger,
    state: { savedLength: number; nextSeq: number; titled: boolean },
  ) {
    this.savedLength = state.savedLength;
    this.nextSeq = state.nextSeq;
    this.titled = state.titled;
  }

  /** Saves the session's state now (a mode change), without waiting for a turn. */
  async saveState(state: PersistedSessionState): Promise<void> {
    try {
      const store = await this.store;
      store.updateSession(this.sessionId, { state });
      await store.flushed();
    } catch (error) {
      this.log.error(`could not save session ${this.sessionId}: ${(error as Error).message}`);
    }
  }

  /** `/title <text>`: the user's title replaces any other, and no later turn gives another. */
  async setTitle(title: string): Promise<void> {
    this.titled = true;
    // Written again with the next turn: a session the store does not hold yet (no turn so far) drops the update.
    this.userTitle = title;
    try {
      const store = await this.store;
      store.updateSession(this.sessionId, { title });
      await store.flushed();
    } catch (error) {
      this.log.error(`could not save session ${this.sessionId}: ${(error as Error).message}`);
    }
  }

  /** Saves the turn; returns the title when this turn gave the session its title. */
  async afterTurn(
    conversation: Conversation,
    titleHint: string,
    state: PersistedSessionState,
    replaced = false,
  ): Promise<string | undefined> {
    try {
      const store = await this.store;
      const history = conversation.messages;
      const names = toolNamesOf(history);
      if (replaced || history.length < this.savedLength) {
        store.replaceMessages(this.sessionId, toStoredMessages(history, this.nextSeq, names));
        this.nextSeq += history.length;
      } else if (history.length > this.savedLength) {
        store.appendMessages(this.sessionId, toStoredMessages(history.slice(this.savedLength), this.nextSeq, names));
        this.nextSeq += history.length - this.savedLength;
      }
      this.savedLength = history.length;
      const title = this.userTitle ?? (!this.titled ? titleOf(titleHint) : undefined);
      if (title) this.titled = true;
      this.userTitle = undefined;
      store.updateSession(this.sessionId, { ...(title ? { title } : {}), state });
      await store.flushed();
      return title;
    } catch (error) {
      this.log.error(`could not save session ${this.sessionId}: ${(error as Error).message}`);
      return undefined;
    }
  }
}

function titleOf(text: string): string | undefined {
  const line = text
    .split("\n")
    .find((l) => l.trim())
    ?.trim();
  if (!line) return undefined;
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

import type { StartupNotice } from "../updates/startup-notices.js";

/**
 * What a session has to tell its client besides the engine's own events. They used to wait in the session for a
 * handler to `take…()` them after the right step (notices before a reply, the title after a turn, the model picker
 * after /model), and a handler that forgot one lost it silently. Now the session emits them and a handler listens for
 * the length of its request: it hears every kind, including kinds added later.
 */
export type SessionEvent =
  /** Something the user must hear: a context file blocked, commands not sandboxed, an MCP server that failed. */
  | ({ readonly type: "notice" } & StartupNotice)
  /** A turn gave the session its title. */
  | { readonly type: "title"; readonly title: string }
  /** The model changed (/model): the client's config options, its model picker among them, are out of date. */
  | { readonly type: "config_changed" };

export type SessionListener = (event: SessionEvent) => void;

/**
 * The session's events, heard by at most one listener: the request whose turn it is (as with terminal-links.ts).
 * An event with nobody listening is held for the next listener, so none is lost between requests. Notices always
 * wait for the next listener: they are shown at the top of a reply (message chunks, for clients without
 * `session.notices`), never in the middle of one that is streaming.
 */
export class SessionEvents {
  private listener: SessionListener | undefined;
  private readonly held: SessionEvent[] = [];

  /** Hears the events held so far, then each one as it happens; returns the function that stops listening. */
  listen(listener: SessionListener): () => void {
    this.listener = listener;
    for (const event of this.held.splice(0)) listener(event);
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** `first`: heard before the events already held (a notice that matters more than the ones waiting). */
  emit(event: SessionEvent, first = false): void {
    if (this.listener && event.type !== "notice") this.listener(event);
    else if (first) this.held.unshift(event);
    else this.held.push(event);
  }
}

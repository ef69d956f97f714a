import type { BrowserSession, LaunchSettings } from "./browser-session.js";

/**
 * A session's slot for its browser (SessionToolState.browser, shared with its subagents): empty until the first
 * browser call, emptied when the session closes. It knows playwright-core only as a type, so the session state that
 * holds it loads nothing heavy.
 */
export class BrowserHolder {
  private launching: Promise<BrowserSession> | undefined;
  private closed = false;

  /** The running browser, launched now if there is none (or the last one died). */
  async open(settings: LaunchSettings): Promise<BrowserSession> {
    if (this.closed) throw new Error("The session is closed.");
    const pending = this.launching;
    if (pending) {
      const running = await pending.catch(() => undefined);
      if (running?.alive) return running;
      // Another call relaunched meanwhile (parallel tool calls): use that one.
      if (this.launching !== pending) return this.open(settings);
    }
    // Assigned before any await, so parallel calls share one launch.
    const launching = import("./browser-session.js").then(({ BrowserSession }) => BrowserSession.launch(settings));
    this.launching = launching;
    const session = await launching;
    // The session closed while Chromium was starting: it must not outlive it.
    if (this.closed) {
      await session.close();
      throw new Error("The session is closed.");
    }
    return session;
  }

  /** The running browser, or undefined when none was launched (tools other than navigate say so). */
  async running(): Promise<BrowserSession | undefined> {
    const session = await this.launching?.catch(() => undefined);
    return session?.alive ? session : undefined;
  }

  /** Ends the browser for good (the session closed); later calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const session = await this.launching?.catch(() => undefined);
    this.launching = undefined;
    await session?.close();
  }
}

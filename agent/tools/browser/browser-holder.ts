import type { BrowserSession, LaunchSettings } from "./browser-session.js";

/** What the holder needs of a launched browser (BrowserSession; tests give a stand-in). */
export interface HeldBrowser {
  readonly alive: boolean;
  close(): Promise<void>;
}

type Launcher<B extends HeldBrowser> = (settings: LaunchSettings) => Promise<B>;

// browser-session.ts (and playwright-core with it) loads with the first browser call, not with the session.
const launchChromium: Launcher<BrowserSession> = (settings) =>
  import("./browser-session.js").then(({ BrowserSession }) => BrowserSession.launch(settings));

/**
 * A session's slot for its browser (SessionToolState.browser, shared with its subagents): empty until the first
 * browser call, emptied when the session closes or when the browser sat unused for `browser.inactivity_timeout`
 * (upstream reaps idle sessions the same way: an editor session stays open for hours, Chromium need not). It knows
 * playwright-core only as a type, so the session state that holds it loads nothing heavy.
 */
export class BrowserHolder<B extends HeldBrowser = BrowserSession> {
  private launching: Promise<B> | undefined;
  private closed = false;
  private inUse = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleMs = 0;

  constructor(private readonly launch: Launcher<B> = launchChromium as unknown as Launcher<B>) {}

  /** The running browser, launched now if there is none (or the last one died or was reaped). */
  async open(settings: LaunchSettings): Promise<B> {
    if (this.closed) throw new Error("The session is closed.");
    this.idleMs = settings.idleMs;
    const pending = this.launching;
    if (pending) {
      const running = await pending.catch(() => undefined);
      if (running?.alive) return running;
      // Another call relaunched meanwhile (parallel tool calls): use that one.
      if (this.launching !== pending) return this.open(settings);
    }
    // Assigned before any await, so parallel calls share one launch.
    const launching = this.launch(settings);
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
  async running(): Promise<B | undefined> {
    const session = await this.launching?.catch(() => undefined);
    return session?.alive ? session : undefined;
  }

  /** Runs a browser call; the idle clock restarts when the last call in flight ends (never during one). */
  async use<T>(work: () => Promise<T>): Promise<T> {
    this.inUse++;
    clearTimeout(this.idleTimer);
    try {
      return await work();
    } finally {
      this.inUse--;
      if (this.inUse === 0 && this.launching && this.idleMs > 0) {
        // unref: an idle browser's timer must not keep the server alive once the editor has gone.
        this.idleTimer = setTimeout(() => void this.release(), this.idleMs).unref();
      }
    }
  }

  /** Ends the browser for good (the session closed); later calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }

  private async release(): Promise<void> {
    clearTimeout(this.idleTimer);
    // Emptied before the wait, so a call arriving meanwhile launches a browser of its own instead of this one.
    const pending = this.launching;
    this.launching = undefined;
    const session = await pending?.catch(() => undefined);
    await session?.close();
  }
}

import type { Browser, BrowserContext, Page } from "playwright-core";
import { withoutSecrets } from "../../sandbox/secret-environment.js";
import { type BlockedRequest, type GuardProxy, startGuardProxy } from "./guard-proxy.js";
import { PageDialogs } from "./page-dialogs.js";
import type { RequestPolicy } from "./request-guard.js";

/*
 * One session's browser: a headless Chromium of the user's (never downloaded), launched on the first browser call
 * with a fresh profile in a temporary folder (never the user's own, so no cookies or logins: `chromium.launch` makes
 * one and deletes it on close), one page, closed with the session. Its only way to the network is the guard proxy
 * (guard-proxy.ts). This module is loaded only by that first call (browser-holder.ts imports it dynamically), and it
 * loads playwright-core the same way: neither is on the start-up or session/new path.
 */

export interface LaunchSettings {
  readonly executablePath: string;
  /** Read at each request, so an edit of config.yaml applies to the pages already open. */
  readonly policy: () => RequestPolicy;
  /** The deadline of one action (`browser.command_timeout`). */
  readonly timeoutMs: number;
  /** How long an unused browser stays (`browser.inactivity_timeout`); 0 keeps it for the session. */
  readonly idleMs: number;
}

export interface ConsoleEntry {
  readonly type: string;
  readonly text: string;
}

/** Kept per page; older entries go first (a chatty page must not grow the session without bound). */
const MAX_ENTRIES = 500;
const VIEWPORT = { width: 1280, height: 720 };
/** Quiet, headless, no phoning home: what a test browser should be (testing-offline.md's flags). */
const CHROMIUM_ARGS = [
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  // WebRTC's UDP would go around the proxy (and its SSRF guard): only proxied traffic leaves the page.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

function capped<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > MAX_ENTRIES) list.splice(0, list.length - MAX_ENTRIES);
}

export class BrowserSession {
  readonly consoleMessages: ConsoleEntry[] = [];
  readonly jsErrors: string[] = [];
  /** The page's dialogs, held for browser_dialog; those closed without the model are logged with the console's. */
  readonly dialogs = new PageDialogs((text) => capped(this.consoleMessages, { type: "dialog", text }));
  private current: Page | undefined;

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly proxy: GuardProxy,
    /** Requests the guard refused, newest last (how a blocked redirect is explained). */
    readonly blocked: BlockedRequest[],
    readonly timeoutMs: number,
  ) {}

  static async launch(settings: LaunchSettings): Promise<BrowserSession> {
    const { chromium } = await import("playwright-core");
    const blocked: BlockedRequest[] = [];
    const proxy = await startGuardProxy(settings.policy, (b) => capped(blocked, b));
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: settings.executablePath,
        headless: true,
        // Chromium's own sandbox where it can work; as root it cannot (upstream passes --no-sandbox there too).
        chromiumSandbox: process.platform === "linux" ? process.getuid?.() !== 0 : true,
        args: CHROMIUM_ARGS,
        // Every request through the guard; Playwright adds `<-loopback>` so that localhost goes through it too.
        proxy: { server: proxy.url },
        // The browser and its helpers never see the user's keys (upstream strips them the same way).
        env: withoutSecrets(process.env),
        timeout: settings.timeoutMs,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      const context = await browser.newContext({ acceptDownloads: false, viewport: VIEWPORT });
      context.setDefaultTimeout(settings.timeoutMs);
      return new BrowserSession(browser, context, proxy, blocked, settings.timeoutMs);
    } catch (error) {
      await browser?.close().catch(() => undefined);
      await proxy.close();
      throw error;
    }
  }

  /** Whether the browser is still there (a crash or a kill ends it; the next call launches a new one). */
  get alive(): boolean {
    return this.browser.isConnected();
  }

  /** The session's page; a new one when the page closed itself (window.close()). */
  async page(): Promise<Page> {
    if (this.current && !this.current.isClosed()) return this.current;
    const page = await this.context.newPage();
    page.on("console", (message) => capped(this.consoleMessages, { type: message.type(), text: message.text() }));
    page.on("pageerror", (error) => capped(this.jsErrors, error.message));
    page.on("dialog", this.dialogs.onDialog);
    page.on("close", () => this.dialogs.forget());
    this.current = page;
    return page;
  }

  /** The page if one was opened (tools other than navigate need one). */
  get openedPage(): Page | undefined {
    return this.current && !this.current.isClosed() ? this.current : undefined;
  }

  async close(): Promise<void> {
    this.dialogs.forget();
    // Already gone is fine: nothing is left to close.
    await this.browser.close().catch(() => undefined);
    await this.proxy.close();
  }
}

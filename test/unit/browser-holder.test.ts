import assert from "node:assert/strict";
import { BrowserHolder, type HeldBrowser } from "../../agent/tools/browser/browser-holder.js";
import type { LaunchSettings } from "../../agent/tools/browser/browser-session.js";

/** Stands in for a launched Chromium: counts launches and knows whether it was closed. */
class FakeBrowser implements HeldBrowser {
  closed = false;
  get alive() {
    return !this.closed;
  }
  async close() {
    this.closed = true;
  }
}

const settings = (idleMs: number): LaunchSettings => ({
  executablePath: "/usr/bin/chromium",
  policy: () => ({ allowLocalhost: true, allowPrivateUrls: false }),
  timeoutMs: 30_000,
  idleMs,
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a session's browser slot", () => {
  let launched: FakeBrowser[];
  let holder: BrowserHolder<FakeBrowser>;
  beforeEach(() => {
    launched = [];
    holder = new BrowserHolder(async () => {
      await pause(5);
      const browser = new FakeBrowser();
      launched.push(browser);
      return browser;
    });
  });

  it("launches once for parallel calls and reuses the browser until it dies", async () => {
    const [a, b] = await Promise.all([holder.open(settings(0)), holder.open(settings(0))]);
    assert.equal(a, b);
    assert.equal(launched.length, 1);
    assert.equal(await holder.running(), a);
    a.closed = true; // crashed
    assert.equal(await holder.running(), undefined);
    const c = await holder.open(settings(0));
    assert.notEqual(c, a);
    assert.equal(launched.length, 2);
  });

  it("closes a browser left unused for the inactivity timeout, never one in use", async () => {
    const browser = await holder.use(() => holder.open(settings(40)));
    await holder.use(() => pause(80)); // longer than the timeout, but in use the whole time
    assert.equal(browser.closed, false);
    await pause(120);
    assert.equal(browser.closed, true, "reaped once idle");
    assert.equal(await holder.running(), undefined);
    assert.notEqual(await holder.open(settings(40)), browser, "the next call starts a fresh one");
  });

  it("closes with the session and refuses to launch afterwards, even one still starting", async () => {
    const starting = holder.open(settings(0));
    await holder.close();
    await assert.rejects(starting, /The session is closed/);
    assert.equal(launched[0]!.closed, true);
    await assert.rejects(holder.open(settings(0)), /The session is closed/);
  });
});

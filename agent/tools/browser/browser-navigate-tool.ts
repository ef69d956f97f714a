import * as z from "zod/v4";
import { secretInUrlReason } from "../../web/url-safety.js";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import type { ToolResult } from "../tool.js";
import type { BrowserSession } from "./browser-session.js";
import { browserFailure, browserPageResult, errorLine, guarded, launchSettingsFor } from "./browser-tool-support.js";
import { type RequestPolicy, requestBlockReason } from "./request-guard.js";

/** Upstream's floor for `open`: a cold Chromium and a slow page may need more than the command timeout. */
const MIN_NAVIGATION_TIMEOUT_MS = 60_000;
/** After the document is in, how long to wait for its images and scripts before snapshotting anyway. */
const LOAD_GRACE_MS = 5_000;

/** Upstream's title patterns of bot-detection pages. */
const BLOCKED_PAGE_PATTERNS = [
  "access denied",
  "access to this page has been denied",
  "blocked",
  "bot detected",
  "verification required",
  "please verify",
  "are you a robot",
  "captcha",
  "cloudflare",
  "ddos protection",
  "checking your browser",
  "just a moment",
  "attention required",
];

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** A URL as typed: `localhost:3000` means the local dev server over http, `example.com` a site over https. */
export function normalizeUrl(raw: string): string {
  const url = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^(about|data|javascript|file):/i.test(url)) return url;
  return /^(localhost|127\.|\[::1\])/i.test(url) ? `http://${url}` : `https://${url}`;
}

/** Why the URL is refused before any browser starts: secrets in it, a scheme or an address the guard refuses. */
async function refusal(url: string, policy: RequestPolicy): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `Invalid URL: ${url}`;
  }
  const secret = secretInUrlReason(parsed);
  if (secret) return secret;
  if (parsed.protocol === "data:") return "Blocked: only http and https pages can be opened (got data)";
  return requestBlockReason(url, policy);
}

export const browserNavigateTool = defineTool({
  name: "browser_navigate",
  toolsets: ["browser"],
  kind: "fetch",
  description:
    "Navigate to a URL in the browser. Initializes the session and loads the page. Must be called before other browser tools. " +
    "For simple information retrieval, prefer web_search or web_extract (faster, cheaper). For plain-text endpoints — URLs ending " +
    "in .md, .txt, .json, .yaml, .yml, .csv, .xml, raw.githubusercontent.com, or any documented API endpoint — prefer curl via the " +
    "terminal tool or web_extract; the browser stack is overkill and much slower for these. Use browser tools when you need to " +
    "interact with a page (click, fill forms, dynamic content). Returns a compact page snapshot with interactive elements and ref " +
    "IDs — no need to call browser_snapshot separately after navigating.",
  parameters: () =>
    z.object({
      url: z.string().describe("The URL to navigate to (e.g., 'https://example.com')"),
    }),
  describe: (args) => ({ title: `navigate: ${shorten(str(args?.url))}`, locations: [] }),
  async run(args, ctx) {
    if (!args.url.trim()) return browserFailure("url is required");
    const url = normalizeUrl(args.url);
    const settings = launchSettingsFor(ctx);
    if ("error" in settings) return settings.error;
    return ctx.state.browser.use(() =>
      guarded(ctx.signal, async () => {
        const refused = await refusal(url, settings.policy());
        if (refused) return browserFailure(refused);
        const session = await ctx.state.browser.open(settings);
        return navigate(session, url, ctx.home);
      }),
    );
  },
});

async function navigate(session: BrowserSession, url: string, home: string): Promise<ToolResult> {
  const page = await session.page();
  const blockedBefore = session.blocked.length;
  let failure: unknown;
  await session.dialogs.leaving(() =>
    page
      .goto(url, { waitUntil: "domcontentloaded", timeout: Math.max(session.timeoutMs, MIN_NAVIGATION_TIMEOUT_MS) })
      .catch((error: unknown) => (failure = error)),
  );
  // The guard proxy refused the page or a hop of its redirects: say which and why, not net::ERR_… or its 403 page.
  const refused = session.blocked.slice(blockedBefore);
  const landed = refused.find((b) => sameUrl(b.url, page.url())) ?? (failure ? refused.at(-1) : undefined);
  if (landed) {
    await page.goto("about:blank").catch(() => undefined);
    return browserFailure(
      sameUrl(landed.url, url) ? landed.reason : `${landed.reason} (redirect landed on ${landed.url})`,
    );
  }
  if (failure) return browserFailure(errorLine(failure));
  await page.waitForLoadState("load", { timeout: LOAD_GRACE_MS }).catch(() => undefined);
  const title = await page.title();
  // With the first call, not the engine: the snapshot's budget writes files (web/page-budget.ts).
  const { takeSnapshot } = await import("./page-snapshot.js");
  const { snapshot, elementCount } = await takeSnapshot(page, false, home);
  const fields: Record<string, unknown> = { url: page.url(), title };
  const lowered = title.toLowerCase();
  if (BLOCKED_PAGE_PATTERNS.some((pattern) => lowered.includes(pattern)))
    fields.bot_detection_warning =
      `Page title '${title}' suggests bot detection. The site may have blocked this request. ` +
      "Options: 1) Try adding delays between actions, 2) Access different pages first, " +
      "3) Some sites have very aggressive bot detection that may be unavoidable.";
  fields.snapshot = snapshot;
  fields.element_count = elementCount;
  return browserPageResult("browser_navigate", fields, `${title}\n${snapshot}`);
}

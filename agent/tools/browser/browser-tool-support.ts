import type { Page } from "playwright-core";
import { loadBrowserSettings } from "../../config/browser-settings.js";
import { redactSecrets } from "../../security/secret-redaction.js";
import { threatWarning, wrapUntrusted } from "../../web/untrusted-content.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import type { BrowserSession, LaunchSettings } from "./browser-session.js";
import { findChromium } from "./chromium-executable.js";

/*
 * What every browser tool shares: upstream's JSON answers (`{"success": true, …}` / `{"success": false, "error": …}`),
 * page text wrapped as untrusted data like the web tools' (a page is someone else's text), secrets masked in it
 * (upstream's _redact_browser_output: a page can render a key), and errors as one readable line.
 *
 * Read-only mode: looking runs in every mode, like web_extract; acting on a page asks first (read-only-gate.ts).
 */

export function browserFailure(message: string): ToolResult {
  return toolError(JSON.stringify({ success: false, error: message }));
}

/** A success without page text (a click, a key press). */
export function browserSuccess(fields: Readonly<Record<string, unknown>>): ToolResult {
  return { content: JSON.stringify({ success: true, ...fields }) };
}

/** A success carrying page text (`pageText`: what the scanner reads), wrapped as untrusted with its findings. */
export function browserPageResult(
  tool: string,
  fields: Readonly<Record<string, unknown>>,
  pageText: string,
  extra: Partial<ToolResult> = {},
): ToolResult {
  const json = JSON.stringify({ success: true, ...fields }, null, 2);
  const warning = threatWarning(`the page`, pageText);
  return { content: wrapUntrusted(tool, redactSecrets(json), warning ? [warning] : []), ...extra };
}

/** The settings of one call: the browser to launch and the guard's policy, read afresh (an edit needs no restart). */
export function launchSettingsFor(ctx: ToolContext): LaunchSettings | { error: ToolResult } {
  let settings: ReturnType<typeof loadBrowserSettings>;
  try {
    settings = loadBrowserSettings(ctx.home, process.env);
  } catch (error) {
    return { error: browserFailure(`Cannot read the browser settings: ${(error as Error).message}`) };
  }
  const executablePath = findChromium(settings.executablePath);
  if (!executablePath)
    return {
      error: browserFailure(
        "No Chromium or Chrome was found. Install one (e.g. `apt install chromium`) or set browser.executable_path in config.yaml.",
      ),
    };
  return {
    executablePath,
    timeoutMs: settings.commandTimeoutMs,
    idleMs: settings.inactivityTimeoutMs,
    policy: () => {
      try {
        const now = loadBrowserSettings(ctx.home, process.env);
        return { allowLocalhost: now.allowLocalhost, allowPrivateUrls: now.allowPrivateUrls };
      } catch {
        // A config.yaml broken since the launch: the strictest policy, not the loosest.
        return { allowLocalhost: false, allowPrivateUrls: false };
      }
    },
  };
}

export const NO_PAGE = "No page is open in the browser: call browser_navigate first.";

/**
 * Runs `action` on the session's page, or says a page must be opened first; any failure becomes one line.
 *
 * A JavaScript dialog stops the page's script, and Playwright's action with it, until it is answered: an action
 * that opens one is not waited for (it ends when the dialog is answered; its result is dropped) and its answer is
 * `whenDialog` with the pending dialog; with a dialog already pending, the action does not start (it would wait for
 * the dialog too), and the answer says to call browser_dialog first.
 */
export async function withPage(
  ctx: ToolContext,
  action: (page: Page, session: BrowserSession) => Promise<ToolResult>,
  tool: string,
  whenDialog: Readonly<Record<string, unknown>> = {},
): Promise<ToolResult> {
  const session = await ctx.state.browser.running();
  const page = session?.openedPage;
  if (!session || !page) return browserFailure(NO_PAGE);
  if (session.dialogs.pending.length > 0) return pendingDialogResult(tool, session, {});
  return ctx.state.browser.use(() =>
    guarded(ctx.signal, async () => {
      const wait = session.dialogs.whenOpen();
      try {
        return await Promise.race([
          action(page, session),
          wait.opened.then(() => pendingDialogResult(tool, session, whenDialog)),
        ]);
      } finally {
        wait.stop();
      }
    }),
  );
}

/** Upstream's `pending_dialogs` (as its snapshot carries them), with what to do: the message is the page's text. */
export function pendingDialogResult(
  tool: string,
  session: BrowserSession,
  fields: Readonly<Record<string, unknown>>,
): ToolResult {
  const pending = session.dialogs.pending;
  return browserPageResult(
    tool,
    {
      ...fields,
      pending_dialogs: pending,
      note:
        "A JavaScript dialog is open and blocks the page until it is answered: call browser_dialog with " +
        "action='accept' or 'dismiss' (and prompt_text for a prompt). Unanswered, it is dismissed after 300 s " +
        "or when browser_navigate leaves the page.",
    },
    pending.map((d) => d.message).join("\n"),
  );
}

/** `action`, ended early by the user's cancel; a thrown error (Playwright's are long) becomes its first line. */
export async function guarded(signal: AbortSignal, action: () => Promise<ToolResult>): Promise<ToolResult> {
  if (signal.aborted) return browserFailure("Cancelled.");
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<ToolResult>((resolve) => {
    onAbort = () => resolve(browserFailure("Cancelled."));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([action(), cancelled]);
  } catch (error) {
    return browserFailure(errorLine(error));
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** Playwright's message without its call log (`Call log:` and the lines after) and its ANSI colours. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // ANSI colour codes (Playwright colours its messages for terminals).
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  return plain
    .split(/\n\s*Call log:/)[0]!
    .trim()
    .split("\n")[0]!
    .trim();
}

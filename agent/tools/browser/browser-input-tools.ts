import type { Locator, Page } from "playwright-core";
import * as z from "zod/v4";
import { redactSecrets } from "../../security/secret-redaction.js";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import type { ToolResult } from "../tool.js";
import { browserFailure, browserSuccess, withPage } from "./browser-tool-support.js";
import { readOnlyRefusal } from "./read-only-gate.js";
import { refSelector } from "./snapshot-text.js";

/*
 * The tools that act on the page as a user would: click, type, press a key, scroll. They answer upstream's short
 * JSON (what was done), not the page: the model asks for a snapshot when it wants to see the result.
 */

/** Upstream scrolls ~500 px a call (about half a viewport). */
const SCROLL_PIXELS = 500;

/** Upstream adds the `@` to a bare ref, and reports the ref in that form. */
const shownRef = (ref: string) => (ref.trim().startsWith("@") ? ref.trim() : `@${ref.trim()}`);

/**
 * The element of `ref` in the latest snapshot, or the failure to report. Checked first: Playwright would wait the
 * whole command timeout for an element that is not there (a ref from before the page changed).
 */
async function element(page: Page, ref: string): Promise<Locator | ToolResult> {
  const selector = refSelector(ref);
  if (!selector) return browserFailure(`'${ref}' is not an element ref: pass one from the snapshot, like @e5.`);
  const locator = page.locator(selector);
  if ((await locator.count()) === 0)
    return browserFailure(
      `No element ${shownRef(ref)} on the page: it changed since the snapshot, or the ref is wrong. Take a new browser_snapshot.`,
    );
  return locator;
}

export const browserClickTool = defineTool({
  name: "browser_click",
  toolsets: ["browser"],
  kind: "execute",
  description:
    "Click on an element identified by its ref ID from the snapshot (e.g., '@e5'). The ref IDs are shown in square brackets in the " +
    "snapshot output. Requires browser_navigate and browser_snapshot to be called first.",
  parameters: () =>
    z.object({
      ref: z.string().describe("The element reference from the snapshot (e.g., '@e5', '@e12')"),
    }),
  describe: (args) => ({ title: `click: ${str(args?.ref)}`, locations: [] }),
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        const target = await element(page, args.ref);
        if (!("click" in target)) return target;
        const refused = await readOnlyRefusal(ctx, `browser_click ${shownRef(args.ref)}`);
        if (refused) return refused;
        await target.click();
        return browserSuccess({ clicked: shownRef(args.ref) });
      },
      "browser_click",
      { clicked: shownRef(args.ref) },
    ),
});

export const browserTypeTool = defineTool({
  name: "browser_type",
  toolsets: ["browser"],
  kind: "execute",
  description:
    "Type text into an input field identified by its ref ID. Clears the field first, then types the new text. Requires " +
    "browser_navigate and browser_snapshot to be called first.",
  parameters: () =>
    z.object({
      ref: z.string().describe("The element reference from the snapshot (e.g., '@e3')"),
      text: z.string().describe("The text to type into the field"),
    }),
  describe: (args) => ({ title: `type: ${str(args?.ref)}`, locations: [] }),
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        const target = await element(page, args.ref);
        if (!("fill" in target)) return target;
        const refused = await readOnlyRefusal(ctx, `browser_type ${shownRef(args.ref)}`);
        if (refused) return refused;
        await target.fill(args.text);
        // The typed text goes back to the model and the history: a key typed into a form is masked there (upstream).
        return browserSuccess({ typed: redactSecrets(args.text), element: shownRef(args.ref) });
      },
      "browser_type",
      { typed: redactSecrets(args.text), element: shownRef(args.ref) },
    ),
});

export const browserPressTool = defineTool({
  name: "browser_press",
  toolsets: ["browser"],
  kind: "execute",
  description:
    "Press a keyboard key. Useful for submitting forms (Enter), navigating (Tab), or keyboard shortcuts. Requires browser_navigate " +
    "to be called first.",
  parameters: () =>
    z.object({
      key: z.string().describe("Key to press (e.g., 'Enter', 'Tab', 'Escape', 'ArrowDown')"),
    }),
  describe: (args) => ({ title: `press: ${shorten(str(args?.key))}`, locations: [] }),
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        if (!args.key.trim()) return browserFailure("key is required (e.g. 'Enter', 'Tab', 'Escape', 'ArrowDown').");
        const refused = await readOnlyRefusal(ctx, `browser_press ${args.key.trim()}`);
        if (refused) return refused;
        await page.keyboard.press(args.key.trim());
        return browserSuccess({ pressed: args.key.trim() });
      },
      "browser_press",
      { pressed: args.key.trim() },
    ),
});

export const browserScrollTool = defineTool({
  name: "browser_scroll",
  toolsets: ["browser"],
  kind: "execute",
  description:
    "Scroll the page in a direction. Use this to reveal more content that may be below or above the current viewport. Requires " +
    "browser_navigate to be called first.",
  parameters: () =>
    z.object({
      direction: z.enum(["up", "down"]).describe("Direction to scroll"),
    }),
  describe: (args) => ({ title: `scroll: ${str(args?.direction)}`, locations: [] }),
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        await page.mouse.wheel(0, args.direction === "up" ? -SCROLL_PIXELS : SCROLL_PIXELS);
        return browserSuccess({ scrolled: args.direction });
      },
      "browser_scroll",
      { scrolled: args.direction },
    ),
});

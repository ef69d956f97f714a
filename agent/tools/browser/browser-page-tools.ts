import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import { browserFailure, browserPageResult, browserSuccess, withPage } from "./browser-tool-support.js";
import { readOnlyRefusal } from "./read-only-gate.js";

/*
 * The tools that read the page other than through its snapshot: history, its images, its console (and JavaScript
 * run in it). What they return comes from the page and is wrapped as untrusted, like the snapshot.
 */

export const browserBackTool = defineTool({
  name: "browser_back",
  toolsets: ["browser"],
  kind: "execute",
  description: "Navigate back to the previous page in browser history. Requires browser_navigate to be called first.",
  parameters: () => z.object({}),
  describe: () => ({ title: "back", locations: [] }),
  run: (_args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        const response = await page.goBack({ waitUntil: "domcontentloaded" });
        if (!response && page.url() === "about:blank") return browserFailure("Failed to go back");
        return browserSuccess({ url: page.url() });
      },
      "browser_back",
    ),
});

/** Upstream's script: every <img> with a real source (data: URLs left out), its alt text and natural size. */
const IMAGES_SCRIPT = `[...document.images]
  .map((img) => ({ src: img.src, alt: img.alt || "", width: img.naturalWidth, height: img.naturalHeight }))
  .filter((img) => img.src && !img.src.startsWith("data:"))`;

export const browserGetImagesTool = defineTool({
  name: "browser_get_images",
  toolsets: ["browser"],
  kind: "read",
  description:
    "Get a list of all images on the current page with their URLs and alt text. Useful for finding images to analyze with the " +
    "vision tool. Requires browser_navigate to be called first.",
  parameters: () => z.object({}),
  run: (_args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        const images = (await page.evaluate(IMAGES_SCRIPT)) as { alt: string }[];
        return browserPageResult(
          "browser_get_images",
          { images, count: images.length },
          images.map((i) => i.alt).join("\n"),
        );
      },
      "browser_get_images",
    ),
});

export const browserConsoleTool = defineTool({
  name: "browser_console",
  toolsets: ["browser"],
  kind: "other",
  description:
    "Get browser console output and JavaScript errors from the current page. Returns console.log/warn/error/info messages and " +
    "uncaught JS exceptions. Use this to detect silent JavaScript errors, failed API calls, and application warnings. Requires " +
    "browser_navigate to be called first. When 'expression' is provided, evaluates JavaScript in the page context and returns " +
    "the result — use this for DOM inspection, reading page state, or extracting data programmatically.",
  parameters: () =>
    z.object({
      clear: z.boolean().default(false).describe("If true, clear the message buffers after reading"),
      expression: z
        .string()
        .optional()
        .describe(
          "JavaScript expression to evaluate in the page context. Runs in the browser like DevTools console — full access to DOM, " +
            "window, document. Return values are serialized to JSON. Example: 'document.title' or " +
            "'document.querySelectorAll(\"a\").length'",
        ),
    }),
  describe: (args) => {
    const expression = str(args?.expression);
    return { title: expression ? `console: ${shorten(expression)}` : "console", locations: [] };
  },
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page, session) => {
        if (typeof args.expression === "string") {
          const refused = await readOnlyRefusal(ctx, `browser_console ${shorten(args.expression, 200)}`);
          if (refused) return refused;
          let result: unknown;
          try {
            result = await page.evaluate(args.expression);
          } catch (error) {
            return browserFailure(`JavaScript error: ${(error as Error).message.split("\n")[0]}`);
          }
          // A string holding JSON is handed back parsed, as upstream does.
          const parsed = parsedJson(result);
          return browserPageResult(
            "browser_console",
            { result: parsed ?? null, result_type: pythonTypeName(parsed) },
            stringOf(parsed),
          );
        }
        const messages = session.consoleMessages.map((m) => ({ type: m.type, text: m.text, source: "console" }));
        const errors = session.jsErrors.map((message) => ({ message, source: "exception" }));
        if (args.clear === true) {
          session.consoleMessages.length = 0;
          session.jsErrors.length = 0;
        }
        const fields = {
          console_messages: messages,
          js_errors: errors,
          total_messages: messages.length,
          total_errors: errors.length,
        };
        return browserPageResult(
          "browser_console",
          fields,
          [...messages.map((m) => m.text), ...errors.map((e) => e.message)].join("\n"),
        );
      },
      "browser_console",
    ),
});

function parsedJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Upstream reports the type of the result by its Python name (`type(parsed).__name__`). */
function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return { string: "str", boolean: "bool", object: "dict" }[typeof value as string] ?? typeof value;
}

function stringOf(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

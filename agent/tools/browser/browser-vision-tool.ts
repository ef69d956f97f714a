import * as z from "zod/v4";
import { redactSecrets } from "../../security/secret-redaction.js";
import { threatWarning, wrapUntrusted } from "../../web/untrusted-content.js";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import { toolError } from "../tool.js";
import { analyzeImage } from "../vision/analyze-image.js";
import { withPage } from "./browser-tool-support.js";

/** Upstream's framing of the question for the vision model (browser_vision in browser_tool.py). */
export const browserVisionPrompt = (question: string): string =>
  "You are analyzing a screenshot of a web browser.\n\n" +
  `User's question: ${question}\n\n` +
  "Provide a detailed and helpful answer based on what you see in the screenshot. " +
  "If there are interactive elements, describe them. If there are verification challenges " +
  "or CAPTCHAs, describe what type they are and what action might be needed. " +
  "Focus on answering the user's specific question.";

/**
 * browser_vision(question, annotate) as upstream's auxiliary path: a full-page screenshot goes to the vision model
 * (the vision seam: auxiliary.vision, else the session's model when it sees images) with upstream's prompt, and the
 * answer comes back as `{"success": true, "analysis": …, "screenshot_path": …}`. The user sees the screenshot in the
 * tool card. The analysis describes someone else's page, so it is wrapped as untrusted like the page text itself.
 * Upstream's native path (the picture put into the main model's context) is not ported: tool results carry text.
 */
export const browserVisionTool = defineTool({
  name: "browser_vision",
  toolsets: ["browser"],
  kind: "read",
  description:
    "Take a screenshot of the current page and have a vision model answer a question about it. Use this when you need to " +
    "understand what the page looks like - especially for CAPTCHAs, visual verification challenges, complex layouts, or cases " +
    "where the text snapshot misses important visual information. The screenshot is shown to the user in the tool call and " +
    "saved at the returned screenshot_path. Requires browser_navigate to be called first.",
  parameters: () =>
    z.object({
      question: z
        .string()
        .describe("What you want to know about the page visually. Be specific about what you're looking for."),
      annotate: z
        .boolean()
        .default(false)
        .describe(
          "If true, overlay numbered [N] labels on interactive elements. Each [N] maps to ref @eN for subsequent browser " +
            "commands. Useful for QA and spatial reasoning about page layout.",
        ),
    }),
  describe: (args) => ({ title: `vision: ${shorten(str(args?.question))}`, locations: [] }),
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        const { takeScreenshot } = await import("./page-screenshot.js");
        const shot = await takeScreenshot(page, ctx.home, args.annotate === true);
        const answer = await analyzeImage(
          ctx,
          { ...shot.image, name: "screenshot" },
          browserVisionPrompt(args.question),
        );
        const images = [shot.image];
        if (!answer.ok)
          return {
            ...toolError(
              JSON.stringify({
                success: false,
                error: `Error during vision analysis: ${answer.error}`,
                screenshot_path: shot.path,
                note: "Screenshot was captured but vision analysis failed. The user sees it in the tool call.",
              }),
            ),
            images,
          };
        const analysis = redactSecrets(answer.text.trim()) || "Vision analysis returned no content.";
        const json = JSON.stringify(
          {
            success: true,
            analysis,
            screenshot_path: shot.path,
            ...(shot.annotations ? { annotations: shot.annotations } : {}),
          },
          null,
          2,
        );
        const warning = threatWarning("the analysis of the page", analysis);
        return { content: wrapUntrusted("browser_vision", json, warning ? [warning] : []), images };
      },
      "browser_vision",
    ),
});

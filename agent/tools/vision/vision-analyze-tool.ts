import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import * as z from "zod/v4";
import { loadWebSettings } from "../../config/web-settings.js";
import { MAX_IMAGE_BYTES } from "../../providers/image-parts.js";
import { displayPath, type FileToolOptions } from "../../workspace/resolve-path.js";
import { defineTool, type ToolArgs } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import { analyzeImage } from "./analyze-image.js";
import { resolveImageSource } from "./image-source.js";
import { analysisFailure } from "./vision-failure.js";

const parameters = () =>
  z.object({
    image_url: z.string().describe("Image URL (http/https), local file path, or data: URL to load."),
    question: z.string().describe("Your question or request about the image."),
  });

/** Upstream's framing of the question for the side model: a full description first, then the answer. */
export const visionPrompt = (question: string): string =>
  `Fully describe and explain everything about this image, then answer the following question:\n\n${question}`;

/**
 * vision_analyze(image_url, question) as upstream's auxiliary path: the image goes to the vision model
 * (analyzeImage: auxiliary.vision, else the session's model when it sees images) with upstream's prompt, and the
 * result is its JSON, `{"success": true, "analysis": …}` or `{"success": false, "error": …, "analysis": …}`.
 * Upstream's native path (the image put into the main model's context as a tool result) and its `region` crop are
 * not ported: our tool results carry text only, and cropping needs an image library we do not ship.
 */
export function createVisionAnalyzeTool(options: FileToolOptions) {
  return defineTool({
    name: "vision_analyze",
    toolsets: ["vision"],
    kind: "read",
    // The answer transcribes whatever text the image holds: a screenshot or a web image can carry an injection.
    untrustedOutput: "image",
    description:
      "Analyze an image with a vision model: it describes the image in full and answers your question about it. " +
      "Call it any time the user references an image (a screenshot in the project, a URL), then answer from the analysis.",
    parameters,
    describe: (args, cwd) => {
      const source = str(args?.image_url).trim();
      // A path is shown as read_file shows one; a URL as it is; a data: URL would be a wall of base64.
      if (!source || /^[a-z][a-z0-9+.-]*:/i.test(source))
        return {
          title: `Analyze image ${source.startsWith("data:") ? "(inline data)" : shorten(source)}`.trim(),
          locations: [],
        };
      const path = isAbsolute(source) ? source : resolve(cwd, source);
      return { title: `Analyze image ${displayPath(path, cwd)}`, locations: [{ path }] };
    },
    run: (args, ctx) => visionAnalyze(args, ctx, options),
  });
}

async function visionAnalyze(
  args: ToolArgs<ReturnType<typeof parameters>>,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<ToolResult> {
  // Who would look comes first: without a vision model nothing is downloaded or read.
  const route = ctx.vision?.route() ?? { ok: false as const, problem: "Image analysis is not available here." };
  if (!route.ok) return failed(route.problem);
  const source = await resolveImageSource(ctx, args.image_url, {
    ...options,
    downloadTimeoutMs: route.settings.downloadTimeoutMs,
    allowPrivateUrls: /^https?:/i.test(args.image_url.trim()) && allowPrivateUrls(ctx),
    maxBytes: MAX_IMAGE_BYTES,
  });
  if (!source.ok) return failed(source.error);
  const answer = await analyzeImage(ctx, source.image, visionPrompt(args.question));
  if (!answer.ok) return failed(answer.error, answer.model);
  const analysis = answer.text || "There was a problem with the request and the image could not be analyzed.";
  return { content: JSON.stringify({ success: true, analysis }, null, 2) };
}

function failed(message: string, model?: string): ToolResult {
  return toolError(JSON.stringify(analysisFailure(message, model), null, 2));
}

/** `security.allow_private_urls` (as web_extract reads it); a config.yaml that cannot be read allows nothing private. */
function allowPrivateUrls(ctx: ToolContext): boolean {
  try {
    return loadWebSettings(ctx.home, process.env).allowPrivateUrls;
  } catch {
    return false;
  }
}

// The process's own home and environment, as the file tools (process.env passed live).
export const visionAnalyzeTool = createVisionAnalyzeTool({ userHome: homedir(), env: process.env });

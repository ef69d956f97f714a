import { checkImage } from "../../providers/image-parts.js";
import type { ToolContext } from "../tool.js";

/*
 * The vision seam: how any tool (vision_analyze, browser_vision) has a model look at an image.
 *
 *   const answer = await analyzeImage(ctx, { mimeType: "image/png", data: base64 }, "What does the page show?");
 *   if (answer.ok) use(answer.text) else report(answer.error);
 *
 * It asks `auxiliary.vision` in config.yaml (provider, model, base_url, api_key, timeout, temperature) when that
 * names a model, else the session's own model when that accepts images, else it answers with an error that says how
 * to configure auxiliary.vision. The question is sent as it is given: a tool that wants upstream's framing ("Fully
 * describe and explain everything about this image…") writes it. It never throws; cancelling `ctx.signal` or
 * running past auxiliary.vision.timeout ends the call with an error.
 */

/** An image to analyse: its bytes in base64 (a `data:` URL is accepted too) and the type it claims to be. */
export interface VisionImage {
  readonly mimeType: string;
  readonly data: string;
  /** A name for messages ("screenshot.png"), when there is one. */
  readonly name?: string;
}

export type VisionAnswer =
  | {
      readonly ok: true;
      /** The model's answer. */
      readonly text: string;
      /** The model that answered, and where it was configured. */
      readonly model: string;
      readonly source: "auxiliary.vision" | "session";
    }
  | {
      readonly ok: false;
      readonly error: string;
      /** The model that was asked, when the failure came from it (for upstream's error wording). */
      readonly model?: string;
    };

export async function analyzeImage(ctx: ToolContext, image: VisionImage, question: string): Promise<VisionAnswer> {
  if (!ctx.vision) return { ok: false, error: "Image analysis is not available in this front end." };
  const route = ctx.vision.route();
  if (!route.ok) return { ok: false, error: route.problem };
  // Checked against the API that will receive it: Anthropic counts its 5 MB limit on the base64 text.
  const checked = checkImage(image, route.runtime.apiMode);
  if (!checked.ok) return { ok: false, error: checked.reason };
  const deadline = AbortSignal.timeout(route.settings.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, deadline]);
  try {
    const text = await ctx.vision.ask(route, checked.image, question, signal);
    return { ok: true, text, model: route.runtime.model, source: route.source };
  } catch (error) {
    const model = route.runtime.model;
    if (ctx.signal.aborted) return { ok: false, error: "Cancelled by the user.", model };
    if (deadline.aborted) {
      const seconds = route.settings.timeoutMs / 1000;
      return {
        ok: false,
        error: `${model} did not answer within ${seconds} s (auxiliary.vision.timeout).`,
        model,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: message, model };
  }
}

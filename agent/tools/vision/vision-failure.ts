/** vision_analyze's failure result in upstream's shape and words (`_run_analysis` and its `_IMAGE_ERROR_RULES`). */
export interface VisionFailure {
  readonly success: false;
  readonly error: string;
  readonly analysis: string;
}

const BILLING_HINTS = ["402", "insufficient", "payment required", "credits", "billing"];
const CAPABILITY_HINTS = [
  "does not support",
  "not support image",
  "content_policy",
  "multimodal",
  "unrecognized request argument",
  "image input",
];
const REJECTED_IMAGE_HINTS = ["invalid_request", "image_url"];

/**
 * `error` says what happened; `analysis` is what upstream tells the model to do about it, chosen by the first rule
 * whose hint the message contains (billing, then capability, then a rejected image), else a general sentence.
 */
export function analysisFailure(message: string, model = "The vision model"): VisionFailure {
  const lower = message.toLowerCase();
  const has = (hints: readonly string[]) => hints.some((hint) => lower.includes(hint));
  let analysis: string;
  if (has(BILLING_HINTS))
    analysis = `Insufficient credits or payment required. Please top up your API provider account and try again. Error: ${message}`;
  else if (has(CAPABILITY_HINTS))
    analysis = `${model} does not support vision or our request was not accepted by the server. Error: ${message}`;
  else if (has(REJECTED_IMAGE_HINTS))
    analysis =
      "The vision API rejected the image. This can happen when the image is in an unsupported format, corrupted, or " +
      `still too large after auto-resize. Try a smaller JPEG/PNG and retry. Error: ${message}`;
  else analysis = `There was a problem with the request and the image could not be analyzed. Error: ${message}`;
  return { success: false, error: `Error analyzing image: ${message}`, analysis };
}

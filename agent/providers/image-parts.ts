import { seesImages } from "../config/model-metadata.js";
import type { ApiMode } from "../config/provider-catalog.js";
import type { ChatMessage, ImageAttachment, ImageMimeType, UserMessage } from "./messages.js";

/**
 * Images in user messages: checking what a client sent, naming an image in words, and telling a model that cannot
 * see images that one was attached. The wire shapes themselves live with each provider.
 */

export const ACCEPTED_IMAGE_TYPES: readonly ImageMimeType[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/**
 * The cap on an image's decoded size, for every API: OpenAI's allow far more (50 MB a request), but one cap for all
 * keeps a switch of model mostly safe. Anthropic's own limit is stricter still, see ANTHROPIC_MAX_IMAGE_BASE64.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Anthropic measures its 5 MB on the base64 text ("image exceeds 5 MB maximum: 5511796 bytes > 5242880 bytes"), so
 * an image of 3.75 to 5 MiB passes MAX_IMAGE_BYTES and is still a 400 there.
 */
export const ANTHROPIC_MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

/** Whether an API takes this image as it is (the Messages API counts base64 characters). */
export function imageFitsApi(image: Pick<ImageAttachment, "data">, apiMode: ApiMode): boolean {
  return apiMode !== "anthropic_messages" || image.data.length <= ANTHROPIC_MAX_IMAGE_BASE64;
}

/**
 * What one image costs in the context window, for compression planning. Real costs depend on the provider and the
 * picture (Anthropic ≈ width×height/750, about 1,600 for a 1.15-megapixel image; GPT-4o high detail up to ~1,100);
 * upstream's compressor counts 1,600, a realistic upper value that keeps multi-image sessions honest.
 */
export const IMAGE_TOKEN_ESTIMATE = 1600;

export type ImageCheck =
  | { readonly ok: true; readonly image: ImageAttachment }
  | { readonly ok: false; readonly reason: string };

export interface ImageInput {
  /** Base64, or a whole `data:<mime>;base64,<data>` URL (some clients send that). */
  readonly data: string;
  readonly mimeType: string;
  readonly name?: string;
}

// Magic bytes: clients mislabel images (a PNG sent as image/jpeg), and Anthropic rejects a media_type that does not
// match the bytes, so the bytes decide.
const SIGNATURES: ReadonlyArray<readonly [ImageMimeType, (head: Buffer) => boolean]> = [
  ["image/png", (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ["image/jpeg", (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ["image/gif", (h) => ["GIF87a", "GIF89a"].includes(h.subarray(0, 6).toString("latin1"))],
  [
    "image/webp",
    (h) => h.subarray(0, 4).toString("latin1") === "RIFF" && h.subarray(8, 12).toString("latin1") === "WEBP",
  ],
];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks an image a client sent: a PNG, JPEG, GIF or WebP (by its bytes, whatever it is labelled), valid base64,
 * at most MAX_IMAGE_BYTES, and within the limit of `apiMode` when the session's API is known. A refusal says why in words the user can act on; nothing here throws.
 */
export function checkImage(input: ImageInput, apiMode?: ApiMode): ImageCheck {
  const label = input.name ? `"${input.name}"` : "The image";
  let data = input.data;
  let declared = input.mimeType;
  const dataUrl = /^data:([^;,]*)(?:;[^,]*)?;base64,/i.exec(data);
  if (dataUrl) {
    declared = declared || dataUrl[1]!;
    data = data.slice(dataUrl[0].length);
  }
  data = data.replace(/\s+/g, "");
  if (!data) return { ok: false, reason: `${label} arrived without any data.` };
  if (data.length % 4 !== 0 || !BASE64.test(data))
    return { ok: false, reason: `${label} could not be read: its data is not valid base64.` };
  const bytes = (data.length / 4) * 3 - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  if (bytes > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      reason: `${label} is ${formatBytes(bytes)}; images are limited to ${formatBytes(MAX_IMAGE_BYTES)}. Send a smaller or compressed image.`,
    };
  }
  if (apiMode && !imageFitsApi({ data }, apiMode)) {
    return {
      ok: false,
      reason: `${label} is ${formatBytes(bytes)}, ${formatBytes(data.length)} once encoded; Anthropic's API takes images up to ${formatBytes(ANTHROPIC_MAX_IMAGE_BASE64)} encoded (about 3.75 MB). Send a smaller or compressed image.`,
    };
  }
  const head = Buffer.from(data.slice(0, 24), "base64");
  const sniffed = SIGNATURES.find(([, matches]) => matches(head))?.[0];
  if (!sniffed) {
    const what = normaliseMime(declared) || "unknown type";
    return {
      ok: false,
      reason: `${label} (${what}) is not a PNG, JPEG, GIF or WebP image; only those formats can be sent to the model.`,
    };
  }
  return { ok: true, image: { mimeType: sniffed, data, bytes, ...(input.name ? { name: input.name } : {}) } };
}

function normaliseMime(mime: string): string {
  return mime.split(";")[0]!.trim().toLowerCase();
}

export function imageDataUrl(image: ImageAttachment): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** "34 KB", "1.2 MB": sizes as a person reads them. Megabytes round up, so an image just over a limit never reads as the limit. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1).replace(/\.0$/, "")} MB`;
}

/** "screenshot.png, image/png, 34 KB": an image in words. */
export function describeImage(image: ImageAttachment): string {
  return [image.name, image.mimeType, formatBytes(image.bytes)].filter(Boolean).join(", ");
}

/** The placeholder an image leaves in the saved history ("[image: screenshot.png, image/png, 34 KB]"). */
export function imagePlaceholder(image: ImageAttachment): string {
  return `[image: ${describeImage(image)}]`;
}

/** A user message's text with a placeholder for each image, for places that keep text only (the session store). */
export function userTextWithPlaceholders(message: UserMessage): string {
  const placeholders = (message.images ?? []).map(imagePlaceholder);
  return [message.content, placeholders.join("\n")].filter(Boolean).join("\n\n");
}

/** What a model that cannot see images is told in their place. */
export function unseenImagesNote(images: readonly ImageAttachment[]): string {
  const what =
    images.length === 1
      ? `an image (${describeImage(images[0]!)})`
      : `${images.length} images (${images.map(describeImage).join("; ")})`;
  return `[The user attached ${what}, but the current model cannot see images. Do not guess what ${images.length === 1 ? "it shows" : "they show"}; say so, and ask the user to describe ${images.length === 1 ? "it" : "them"} or to switch to a vision-capable model.]`;
}

/** The history as a text-only model must receive it: each message's images replaced by a note after its text. */
export function withImagesAsNotes(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role !== "user" || !m.images?.length) return m;
    return { role: "user", content: [m.content, unseenImagesNote(m.images)].filter(Boolean).join("\n\n") };
  });
}

export function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === "user" && (m.images?.length ?? 0) > 0);
}

/** Whether a runtime's model is sent images as images (resolved runtimes carry the answer; others use the table). */
export function runtimeSeesImages(runtime: { readonly model: string; readonly supportsVision?: boolean }): boolean {
  return runtime.supportsVision ?? seesImages(runtime.model, undefined);
}

import type { ContentBlock } from "@agentclientprotocol/sdk";
import { type ApiMode, checkImage, type ImageAttachment } from "../../agent/index.js";

export interface PromptImages {
  readonly images: readonly ImageAttachment[];
  /** One sentence per image that was refused (wrong format, too large, not base64), for the user. */
  readonly refused: readonly string[];
}

/**
 * The images of an ACP prompt: `image` blocks, and embedded `resource` blocks whose blob is an image (a file
 * dropped into the editor's chat). Each is checked (against the session's API limits when known); a refused one is
 * named with the reason, never sent.
 */
export function promptImages(blocks: readonly ContentBlock[], apiMode?: ApiMode): PromptImages {
  const images: ImageAttachment[] = [];
  const refused: string[] = [];
  for (const block of blocks) {
    const input =
      block.type === "image"
        ? { data: block.data, mimeType: block.mimeType, name: nameFromUri(block.uri) }
        : isImageBlob(block)
          ? {
              data: block.resource.blob,
              mimeType: block.resource.mimeType ?? "",
              name: nameFromUri(block.resource.uri),
            }
          : undefined;
    if (!input) continue;
    const checked = checkImage(input, apiMode);
    if (checked.ok) images.push(checked.image);
    else refused.push(checked.reason);
  }
  return { images, refused };
}

/** An embedded resource carrying an image as a base64 blob (text resources and other blobs are attachments of text). */
export function isImageBlob(block: ContentBlock): block is Extract<ContentBlock, { type: "resource" }> & {
  resource: { blob: string; mimeType?: string | null; uri: string };
} {
  return (
    block.type === "resource" &&
    "blob" in block.resource &&
    (block.resource.mimeType ?? "").toLowerCase().startsWith("image/")
  );
}

/** "file:///home/me/shot%201.png" → "shot 1.png"; nothing for a missing or nameless URI. */
function nameFromUri(uri: string | null | undefined): string | undefined {
  if (!uri) return undefined;
  if (uri.startsWith("data:")) return undefined;
  const last = uri.split(/[?#]/)[0]!.split(/[/\\]/).pop();
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

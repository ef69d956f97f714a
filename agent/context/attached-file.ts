import { extname } from "node:path";
import { checkImage } from "../providers/image-parts.js";
import type { ImageAttachment } from "../providers/messages.js";
import type { Workspace } from "../workspace/workspace.js";
import { checkReferencePath } from "./context-references.js";
import { folderBlock } from "./reference-blocks.js";

/**
 * A file the user attached to a prompt (an editor's resource link), read as upstream's ACP adapter inlines it
 * (hermes-behaviour.md §8.2): images as images, text decoded and capped at 512 KiB, binaries named, not inlined.
 * Unlike upstream, the same guards as @file references apply first: credential files and paths outside the
 * workspace are refused (fail closed).
 */

/** Upstream's `_MAX_ACP_RESOURCE_BYTES`: the most of a file, or the largest image, inlined into a prompt. */
export const MAX_ATTACHMENT_BYTES = 512 * 1024;

// Upstream's list: MIME types that are text although not text/*.
const TEXT_MIME_TYPES = new Set([
  "application/json",
  "application/javascript",
  "application/typescript",
  "application/xml",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
  "application/sql",
]);

// Upstream guesses an image from the file name when the client sent no MIME type.
const IMAGE_SUFFIX_MIME: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
};

export interface AttachedFile {
  /** What the model reads under the attachment's header: the file's text, or a note about it. */
  readonly body: string;
  /** Goes in the header's parentheses ("truncated to 524288 of N bytes"). */
  readonly note?: string;
  /** The file as an image the model can see (then `body` is empty). */
  readonly image?: ImageAttachment;
  /** Whether `body` (or `image`) is the file's content, which counts against the context budget. */
  readonly inlined: boolean;
  /** Set when the user must hear that the file was not attached, and why. */
  readonly problem?: string;
}

export interface AttachedFileOptions {
  readonly workspace: Workspace;
  readonly cwd: string;
  readonly userHome: string;
  readonly hermesHome: string;
  /** Names the file in a problem ("a.ts: file not found"). */
  readonly display: string;
  /** What the client said the file is, if it did. */
  readonly mimeType?: string;
}

export async function readAttachedFile(target: string, options: AttachedFileOptions): Promise<AttachedFile> {
  const checked = checkReferencePath(target, options);
  if ("warning" in checked) return notAttached(options.display, checked.warning);
  const path = checked.path;
  const info = await options.workspace.stat(path);
  if (!info) return notAttached(options.display, "file not found");
  if (info.isDirectory) {
    // A folder (Zed attaches those too): its listing, as @folder gives it.
    const listing = await folderBlock({ raw: options.display, kind: "folder", target: path }, path, options.cwd);
    return "block" in listing ? { body: listing.block, inlined: true } : notAttached(options.display, listing.warning);
  }
  try {
    const mime = mimeMain(options.mimeType);
    const imageMime = mime.startsWith("image/") ? mime : IMAGE_SUFFIX_MIME[extname(path).toLowerCase()];
    if (imageMime) {
      if (info.size > MAX_ATTACHMENT_BYTES) {
        return {
          body: `[Image too large to inline: ${info.size} bytes, cap=${MAX_ATTACHMENT_BYTES}]`,
          inlined: false,
          problem: `${options.display}: the image is ${info.size} bytes; attached images are inlined up to ${MAX_ATTACHMENT_BYTES} bytes`,
        };
      }
      const bytes = await options.workspace.readBytes(path, info.size);
      const image = checkImage({
        data: Buffer.from(bytes).toString("base64"),
        mimeType: imageMime,
        name: options.display,
      });
      if (image.ok) return { body: "", image: image.image, inlined: true };
      // Not a format models take (SVG, BMP): handled as any other file below (an SVG is text).
    }
    return await readAsText(path, info.size, mime, options.workspace);
  } catch (error) {
    return {
      body: `[Could not read attached file: ${(error as Error).message}]`,
      inlined: false,
      problem: `${options.display}: could not be read (${(error as Error).message})`,
    };
  }
}

/**
 * Text, through the workspace so an editor that offers `fs` gives its unsaved buffer. The disk's first bytes decide
 * whether it is binary; a file over the cap, or one that is not UTF-8 (decoded as latin-1, as upstream does), is
 * read from the disk only, since an editor serves whole files as UTF-8 text.
 */
async function readAsText(path: string, size: number, mime: string, workspace: Workspace): Promise<AttachedFile> {
  const head = await workspace.readBytes(path, Math.min(size, MAX_ATTACHMENT_BYTES));
  const diskText = decodeAttachmentText(head, mime, size > MAX_ATTACHMENT_BYTES);
  if (diskText === undefined)
    return { body: `[Binary file omitted: ${size} bytes, mime=${mime || "unknown"}]`, inlined: false };
  if (size > MAX_ATTACHMENT_BYTES || !diskText.utf8)
    return { body: diskText.text, inlined: true, ...truncationNote(size) };
  const text = stripBom(await workspace.readTextFile(path));
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_ATTACHMENT_BYTES) return { body: text, inlined: true };
  // Unsaved edits grew it past the cap.
  return {
    body: decodeAttachmentText(Buffer.from(text).subarray(0, MAX_ATTACHMENT_BYTES), "text/plain", true)!.text,
    inlined: true,
    ...truncationNote(bytes),
  };
}

function truncationNote(size: number): { note?: string } {
  return size > MAX_ATTACHMENT_BYTES ? { note: `truncated to ${MAX_ATTACHMENT_BYTES} of ${size} bytes` } : {};
}

/**
 * Upstream's `_decode_text_bytes`: undefined for binary (a NUL byte, unless the MIME type says text), else UTF-8
 * without its BOM, or latin-1 when the bytes are not UTF-8. `cut` says the bytes are the front of something longer,
 * so a character split at the end is dropped rather than making the whole text fall back to latin-1.
 */
export function decodeAttachmentText(
  bytes: Uint8Array,
  mimeType: string | undefined,
  cut = false,
): { text: string; utf8: boolean } | undefined {
  const mime = mimeMain(mimeType);
  if (bytes.includes(0) && !(mime.startsWith("text/") || TEXT_MIME_TYPES.has(mime))) return undefined;
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: cut }), utf8: true };
  } catch {
    return { text: Buffer.from(bytes).toString("latin1"), utf8: false };
  }
}

function notAttached(display: string, reason: string): AttachedFile {
  return { body: `[Not attached: ${reason}]`, inlined: false, problem: `${display}: ${reason}` };
}

function mimeMain(mimeType: string | undefined): string {
  return (mimeType ?? "").split(";")[0]!.trim().toLowerCase();
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

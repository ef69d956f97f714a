import { fileURLToPath } from "node:url";
import { formatBytes } from "../../providers/image-parts.js";
import { readBlockedError } from "../../security/file-safety.js";
import { displayPath, type FileToolOptions, resolveToolPath } from "../../workspace/resolve-path.js";
import { approveRead } from "../safety/read-approval.js";
import type { ToolContext } from "../tool.js";
import type { VisionImage } from "./analyze-image.js";

/** How vision_analyze's `image_url` is fetched: the limits of a call and where HTTP may go. */
export interface ImageSourceOptions extends FileToolOptions {
  readonly downloadTimeoutMs: number;
  /** `security.allow_private_urls`: without it, private and loopback addresses are refused on every hop. */
  readonly allowPrivateUrls: boolean;
  /** Bytes an image may have (the providers' cap, see image-parts.ts). */
  readonly maxBytes: number;
}

export type ResolvedImage =
  | { readonly ok: true; readonly image: VisionImage }
  | { readonly ok: false; readonly error: string };

// Upstream's: an explicit scheme other than http(s), file and data is refused by name.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const UNRECOGNISED_SCHEME =
  "Unrecognized image source scheme. Use an http(s) URL, a local file path, a file:// URI, or a data: URL.";

/**
 * The bytes of an image named by a URL (fetched through the SSRF guard, capped while it streams, its content type
 * checked), a `data:` URL, or a path (read through the workspace under read_file's rules: credential files are
 * refused, reads outside the workspace ask). The bytes themselves are checked by analyzeImage.
 */
export async function resolveImageSource(
  ctx: ToolContext,
  source: string,
  options: ImageSourceOptions,
): Promise<ResolvedImage> {
  const src = source.trim();
  if (!src) return { ok: false, error: "image_url is required" };
  if (/^data:/i.test(src)) {
    if (!/^data:[^,]*;base64,/i.test(src)) return { ok: false, error: "data: URL must be base64-encoded" };
    return { ok: true, image: { mimeType: "", data: src } };
  }
  if (/^https?:\/\//i.test(src)) return downloadImage(ctx, src, options);
  if (SCHEME.test(src) && !/^file:\/\//i.test(src)) return { ok: false, error: UNRECOGNISED_SCHEME };
  let raw = src;
  if (/^file:\/\//i.test(src)) {
    try {
      raw = fileURLToPath(src);
    } catch (error) {
      return { ok: false, error: `Invalid file:// URI: ${(error as Error).message}` };
    }
  }
  return readImageFile(ctx, raw, options);
}

async function readImageFile(ctx: ToolContext, raw: string, options: ImageSourceOptions): Promise<ResolvedImage> {
  const root = ctx.workspace.root;
  const path = resolveToolPath(raw, root, options.userHome);
  const shown = displayPath(path, root);
  const blocked = readBlockedError(path, { hermesHome: ctx.home, home: options.userHome });
  if (blocked) return { ok: false, error: blocked };
  const refused = await approveRead(ctx, path, { ...options, tool: "vision_analyze", recursive: false });
  if (refused) return { ok: false, error: refused };
  const stat = await ctx.workspace.stat(path);
  if (!stat) return { ok: false, error: `image file not found: '${shown}'` };
  if (stat.isDirectory) return { ok: false, error: `'${shown}' is a directory, not an image file` };
  if (stat.size > options.maxBytes) return { ok: false, error: tooLarge(stat.size, options.maxBytes) };
  try {
    const bytes = await ctx.workspace.readBytes(path, options.maxBytes + 1);
    if (bytes.length > options.maxBytes) return { ok: false, error: tooLarge("over", options.maxBytes) };
    return { ok: true, image: { mimeType: "", data: Buffer.from(bytes).toString("base64"), name: shown } };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

async function downloadImage(ctx: ToolContext, url: string, options: ImageSourceOptions): Promise<ResolvedImage> {
  // The fetcher and the SSRF guard load with the first download, not with the engine.
  const [{ fetchLimited }, { secretInUrlReason }] = await Promise.all([
    import("../../web/http-fetch.js"),
    import("../../web/url-safety.js"),
  ]);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `Invalid image URL: ${url}` };
  }
  const secret = secretInUrlReason(parsed);
  if (secret) return { ok: false, error: secret };
  let response: Awaited<ReturnType<typeof fetchLimited>>;
  try {
    response = await fetchLimited(parsed.href, {
      signal: ctx.signal,
      timeoutMs: options.downloadTimeoutMs,
      maxBytes: options.maxBytes + 1,
      guard: { allowPrivate: options.allowPrivateUrls },
      headers: { Accept: "image/*,*/*;q=0.8" },
    });
  } catch (error) {
    return { ok: false, error: `Image download failed: ${(error as Error).message}` };
  }
  if (response.status < 200 || response.status >= 300)
    return { ok: false, error: `Image download failed: HTTP ${response.status} from ${response.url}` };
  if (response.truncated || response.body.length > options.maxBytes)
    return { ok: false, error: tooLarge("over", options.maxBytes) };
  const contentType = String(response.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  // A page or a JSON error where an image was expected; octet-stream and a missing type are left to the bytes.
  if (contentType && !contentType.startsWith("image/") && contentType !== "application/octet-stream")
    return { ok: false, error: `${response.url} is not an image (content type ${contentType})` };
  const name = fileNameOf(response.url);
  return {
    ok: true,
    image: { mimeType: contentType, data: response.body.toString("base64"), ...(name ? { name } : {}) },
  };
}

/** `size` is exact for files; a download stops one byte past the cap, so it is "over" the cap there. */
function tooLarge(size: number | "over", max: number): string {
  const what = size === "over" ? `over ${formatBytes(max)}` : formatBytes(size);
  return `Image too large (${what}); images are limited to ${formatBytes(max)}. Use a smaller or compressed image.`;
}

/** The last part of the URL's path, as a name for messages. */
function fileNameOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || undefined;
  } catch {
    return undefined;
  }
}

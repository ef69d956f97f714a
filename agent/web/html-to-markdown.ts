import { convertInWorker } from "./markdown-worker.js";

/**
 * Pages become Markdown with node-html-markdown (pure JavaScript, no DOM, no binary), run in a worker thread under a
 * deadline (markdown-worker.ts; what it drops is listed in html-to-markdown-worker.ts). The cleanup around it (title,
 * inline images) stays here: linear regexes, cheap on the main thread.
 */

/** The longest a conversion may run; a dense but benign 400 KB page takes ~6.5 s. */
export const MAX_CONVERSION_MS = 15_000;

export interface ConversionLimits {
  /** Gives up (and terminates the converter) after this long; at most MAX_CONVERSION_MS. */
  readonly deadlineMs?: number;
  /** The turn's cancellation. */
  readonly signal?: AbortSignal;
}

export interface MarkdownPage {
  readonly title: string;
  readonly markdown: string;
}

/** Rejects with a ConversionError (a message for the model) on the deadline, on cancel, or when the converter fails. */
export async function htmlToMarkdown(html: string, limits: ConversionLimits = {}): Promise<MarkdownPage> {
  const deadlineMs = Math.min(limits.deadlineMs ?? MAX_CONVERSION_MS, MAX_CONVERSION_MS);
  const markdown = await convertInWorker(html, deadlineMs, limits.signal);
  return { title: titleOf(html), markdown: replaceDataImages(markdown).trim() };
}

/**
 * The document's <title>, entities decoded and whitespace collapsed (the converter drops <head>). Found with
 * quantifier-free searches, not `<title[^>]*>([\s\S]*?)<\/title>`: on a hostile page of repeated "<title" that regex
 * rescans to the end from every one of them (quadratic; 200 KB held the event loop for seconds).
 */
export function titleOf(html: string): string {
  const head = html.slice(0, 200_000);
  const open = /<title(?=[\s/>])/gi;
  if (!open.exec(head)) return "";
  const start = head.indexOf(">", open.lastIndex);
  if (start < 0) return "";
  const close = /<\/title/gi;
  close.lastIndex = start + 1;
  if (!close.exec(head)) return "";
  return decodeEntities(head.slice(start + 1, close.lastIndex - "</title".length))
    .replace(/\s+/g, " ")
    .trim();
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{1,32});/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** `data:image/<type>;base64,`: the type is bounded so that a page of "data:image/x " without a ';' stays linear. */
const DATA_IMAGE = String.raw`data:image\/[^;\s)]{1,64};base64,`;
/**
 * Every unbounded run below stops at a character that can start no other match (alt text at '[' or ']', base64 at
 * ':' or ';'), so each part of the text is scanned once: hostile text cannot make these quadratic.
 */
const ALT_DATA_IMAGE = new RegExp(String.raw`!\[([^[\]]*)\]\(\s*${DATA_IMAGE}[A-Za-z0-9+/=\s]+\)`, "g");
const LINKED_DATA_IMAGE = new RegExp(String.raw`\(\s*${DATA_IMAGE}[A-Za-z0-9+/=\s]+\)`, "g");
const BARE_DATA_IMAGE = new RegExp(String.raw`${DATA_IMAGE}[A-Za-z0-9+/=]+`, "g");

/**
 * Upstream's convert_base64_images_to_links: inline base64 images are token bombs, so the blob goes and the alt
 * text stays (`[IMAGE: alt]`); real image URLs are kept so they can be fetched or viewed.
 */
export function replaceDataImages(text: string): string {
  return text
    .replace(ALT_DATA_IMAGE, (_m, alt: string) => (alt.trim() ? `[IMAGE: ${alt.trim()}]` : "[IMAGE]"))
    .replace(LINKED_DATA_IMAGE, "[IMAGE]")
    .replace(BARE_DATA_IMAGE, "[IMAGE]");
}

import type { NodeHtmlMarkdown, TranslatorConfigObject } from "node-html-markdown";

/**
 * Pages become Markdown with node-html-markdown (pure JavaScript, no DOM, no binary), loaded on first use so the
 * server starts without it. What a reader never sees is dropped: scripts, styles, navigation, footers, sidebars,
 * forms, and elements hidden with `hidden`, `aria-hidden` or an inline display:none / visibility:hidden style, the
 * usual hiding place of text aimed at an agent rather than a person.
 */

/** Elements dropped with everything inside them (on top of the library's own: head, script, style, meta, ...). */
const DROPPED = ["NAV", "FOOTER", "ASIDE", "NOSCRIPT", "TEMPLATE", "SVG", "CANVAS", "IFRAME", "OBJECT", "FORM", "BUTTON", "SELECT", "DIALOG"];

/** Containers checked for hiding. Only tags without a translator of the library's own, so none is replaced. */
const HIDEABLE = "div,span,p,section,article,main,header,figure,figcaption,center,font,details,summary,dl,dd,dt,label,small,big,abbr,cite,mark,sub,sup,u,ins";

let converter: Promise<NodeHtmlMarkdown> | undefined;

async function loadConverter(): Promise<NodeHtmlMarkdown> {
  // A CommonJS package: bundled into an ESM chunk its exports may sit on `default` only, so look in both places.
  const loaded = await import("node-html-markdown");
  const Converter = (loaded.NodeHtmlMarkdown as typeof loaded.NodeHtmlMarkdown | undefined) ?? (loaded.default as Partial<typeof loaded> | undefined)?.NodeHtmlMarkdown;
  if (!Converter) throw new Error("node-html-markdown did not load (no NodeHtmlMarkdown export)");
  // Data images are kept by the converter so that replaceDataImages can leave their alt text behind (upstream).
  const skipHidden: TranslatorConfigObject = {
    [HIDEABLE]: ({ node }) => (isHidden(node) ? { ignore: true } : {}),
  };
  return new Converter({ ignore: DROPPED, maxConsecutiveNewlines: 2, keepDataImages: true }, skipHidden);
}

interface AttributeReader {
  getAttribute(name: string): string | null | undefined;
  hasAttribute(name: string): boolean;
}

function isHidden(node: AttributeReader): boolean {
  if (node.hasAttribute("hidden")) return true;
  if (node.getAttribute("aria-hidden")?.trim().toLowerCase() === "true") return true;
  const style = node.getAttribute("style")?.toLowerCase().replace(/\s+/g, "") ?? "";
  return style.includes("display:none") || style.includes("visibility:hidden");
}

export interface MarkdownPage {
  readonly title: string;
  readonly markdown: string;
}

export async function htmlToMarkdown(html: string): Promise<MarkdownPage> {
  converter ??= loadConverter();
  const markdown = (await converter).translate(html);
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
  return decodeEntities(head.slice(start + 1, close.lastIndex - "</title".length)).replace(/\s+/g, " ").trim();
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", mdash: "—", ndash: "–", hellip: "…" };

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

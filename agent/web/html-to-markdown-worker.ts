import { parentPort } from "node:worker_threads";
import type { NodeHtmlMarkdown, TranslatorConfigObject } from "node-html-markdown";

/**
 * The worker thread that runs node-html-markdown (started by markdown-worker.ts, never imported by the server).
 * The library is quadratic on hostile input (40 KB of unclosed "<div>x " takes ~95 s), so it runs here, where the
 * server can terminate it at the deadline instead of freezing with it. One request at a time: `{ html }` in,
 * `{ markdown }` or `{ error }` out.
 *
 * What a reader never sees is dropped: scripts, styles, navigation, footers, sidebars, forms, and elements hidden
 * with `hidden`, `aria-hidden` or an inline display:none / visibility:hidden style, the usual hiding place of text
 * aimed at an agent rather than a person.
 */

/** Elements dropped with everything inside them (on top of the library's own: head, script, style, meta, ...). */
const DROPPED = [
  "NAV",
  "FOOTER",
  "ASIDE",
  "NOSCRIPT",
  "TEMPLATE",
  "SVG",
  "CANVAS",
  "IFRAME",
  "OBJECT",
  "FORM",
  "BUTTON",
  "SELECT",
  "DIALOG",
];

/** Containers checked for hiding. Only tags without a translator of the library's own, so none is replaced. */
const HIDEABLE =
  "div,span,p,section,article,main,header,figure,figcaption,center,font,details,summary,dl,dd,dt,label,small,big,abbr,cite,mark,sub,sup,u,ins";

export interface ConversionRequest {
  readonly html: string;
}

export type ConversionReply = { readonly markdown: string } | { readonly error: string };

/**
 * What the converter escapes in text: the library's default escapes every `_`, `*` and `\`, so `snake_case_name`
 * reached the model as `snake\_case\_name` and was copied into code that way. Here a `_` between two letters or
 * digits stays as written (CommonMark never reads an intraword `_` as emphasis), a backslash is escaped only before
 * the punctuation it would otherwise escape (`C:\Users` stays), and `*`, backticks, `~` and brackets, which can
 * change meaning inside a word, are still escaped.
 */
const WORD_KEEPING_ESCAPE: readonly [RegExp, string] = [
  /\\(?=[!-/:-@[-`{-~])|[`*~[\]]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu,
  "\\$&",
];

let converter: Promise<NodeHtmlMarkdown> | undefined;

async function loadConverter(): Promise<NodeHtmlMarkdown> {
  // A CommonJS package: bundled into an ESM chunk its exports may sit on `default` only, so look in both places.
  const loaded = await import("node-html-markdown");
  const Converter =
    (loaded.NodeHtmlMarkdown as typeof loaded.NodeHtmlMarkdown | undefined) ??
    (loaded.default as Partial<typeof loaded> | undefined)?.NodeHtmlMarkdown;
  if (!Converter) throw new Error("node-html-markdown did not load (no NodeHtmlMarkdown export)");
  // Data images are kept by the converter so that replaceDataImages can leave their alt text behind (upstream).
  const skipHidden: TranslatorConfigObject = {
    [HIDEABLE]: ({ node }) => (isHidden(node) ? { ignore: true } : {}),
  };
  return new Converter(
    { ignore: DROPPED, maxConsecutiveNewlines: 2, keepDataImages: true, globalEscape: WORD_KEEPING_ESCAPE },
    skipHidden,
  );
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

async function convert(request: ConversionRequest): Promise<ConversionReply> {
  try {
    converter ??= loadConverter();
    return { markdown: (await converter).translate(request.html) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const port = parentPort;
port?.on("message", (request: ConversionRequest) => {
  void convert(request).then((reply) => port.postMessage(reply));
});

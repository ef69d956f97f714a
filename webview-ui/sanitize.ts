import createDOMPurify, { type Config, type WindowLike } from "dompurify";

/**
 * Everything model output may become in the DOM. Whatever is not listed is dropped: no script, style, iframe, object,
 * embed, form or input, no SVG or MathML (their parsing quirks are the classic sanitiser bypasses), no images (nothing
 * remote is ever loaded; Markdown images become links).
 */
const ALLOWED_TAGS = [
  "p",
  "br",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "del",
  "s",
  "code",
  "pre",
  "kbd",
  "sub",
  "sup",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "span",
  "div",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "details",
  "summary",
];
/** No `style` (UI spoofing, CSS exfiltration), no `on*`, no `target`, no `src`/`srcset`/`action`. */
const ALLOWED_ATTR = ["href", "title", "class", "align", "start", "colspan", "rowspan"];
/** Links only to the web and to mail: no javascript:, data:, vbscript:, file: or command: URIs, no relative paths. */
const ALLOWED_URI = /^(?:https?|mailto):/i;
/** Model HTML may keep only highlighting classes, so it cannot dress itself up as the view's own buttons or cards. */
const ALLOWED_CLASS = /^(?:hljs(?:-[\w-]+)?|language-[\w+#.-]+)$/;

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  SAFE_FOR_XML: true,
};

export interface Sanitizer {
  /** Model HTML as inert DOM, ready to insert (no second parse of a string). */
  toFragment(html: string): DocumentFragment;
  /** The same, serialised: for tests and callers that need a string. */
  toHtml(html: string): string;
}

/** A sanitiser bound to one window: the webview's in the view, jsdom's in tests. */
export function createSanitizer(window: WindowLike): Sanitizer {
  const purify = createDOMPurify(window);
  if (!purify.isSupported)
    throw new Error("DOMPurify cannot run in this window: refusing to render model output unsanitised");
  purify.addHook("uponSanitizeAttribute", (_node, event) => {
    if (event.attrName !== "class") return;
    const kept = event.attrValue.split(/\s+/).filter((name) => ALLOWED_CLASS.test(name));
    if (kept.length === 0) event.keepAttr = false;
    else event.attrValue = kept.join(" ");
  });
  purify.addHook("afterSanitizeAttributes", (node) => {
    // Show where a link goes before it is followed (the view opens it outside the webview, through the host).
    if (node.tagName === "A" && node.hasAttribute("href") && !node.hasAttribute("title"))
      node.setAttribute("title", node.getAttribute("href")!);
  });
  return {
    toFragment: (html) => purify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true }),
    toHtml: (html) => purify.sanitize(html, CONFIG),
  };
}

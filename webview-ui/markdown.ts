import { Marked, type Token, type Tokens } from "marked";
import { escapeHtml, highlightCode } from "./highlight.js";
import type { Sanitizer } from "./sanitize.js";

/**
 * Markdown → HTML for model output. The HTML is NOT safe yet: everything it produces goes through the sanitiser
 * before it reaches the DOM. The overrides only make the output friendlier (highlighted code, images as links);
 * safety never depends on them.
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const { html, language } = highlightCode(text, lang);
      return `<pre><code class="hljs${language ? ` language-${language}` : ""}">${html}</code></pre>\n`;
    },
    // Nothing remote is loaded in the view: an image is shown as a link the user may choose to open.
    image({ href, text }: Tokens.Image): string {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
    // Task lists without <input>: forms are not allowed in model output.
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? "☑ " : "☐ ";
    },
  },
});

/** A whole Markdown text as sanitised HTML (tests and one-off rendering). */
export function markdownToSafeHtml(markdown: string, sanitizer: Sanitizer): string {
  return sanitizer.toHtml(marked.parse(markdown, { async: false }));
}

interface Block {
  /** The Markdown source of this block, exactly as the lexer cut it. */
  readonly raw: string;
  readonly element: HTMLElement;
}

/**
 * One agent message rendered incrementally while it streams. The text is cut into top-level blocks (paragraphs,
 * lists, fences, tables); a block whose source did not change keeps its DOM, so a frame re-parses, re-highlights and
 * re-sanitises only the block still growing at the end, and text the user selected above it stays selected.
 * An unclosed fence simply renders as a code block to the end of the text until its closing fence arrives.
 */
export class MarkdownView {
  readonly element: HTMLElement;
  private blocks: Block[] = [];
  private source = "";

  constructor(
    private readonly doc: Document,
    private readonly sanitizer: Sanitizer,
  ) {
    this.element = doc.createElement("div");
    this.element.className = "markdown";
  }

  update(markdown: string): void {
    if (markdown === this.source) return;
    this.source = markdown;
    const tokens = marked.lexer(markdown).filter((token: Token) => token.type !== "space");
    let i = 0;
    for (; i < tokens.length; i++) {
      const token = tokens[i]!;
      const existing = this.blocks[i];
      if (existing?.raw === token.raw) continue;
      const element = this.renderBlock(token);
      if (existing) existing.element.replaceWith(element);
      else this.element.appendChild(element);
      this.blocks[i] = { raw: token.raw, element };
    }
    for (const stale of this.blocks.splice(i)) stale.element.remove();
  }

  private renderBlock(token: Token): HTMLElement {
    const block = this.doc.createElement("div");
    block.className = "md-block";
    block.appendChild(this.sanitizer.toFragment(marked.parser([token])));
    return block;
  }
}

import { h } from "./render/dom.js";

export interface CompletionOption {
  readonly label: string;
  readonly detail?: string;
}

/**
 * The composer's suggestion popup (slash commands, @-mentions): an ARIA listbox driven from the textarea, which keeps
 * focus throughout (aria-activedescendant points at the highlighted option).
 */
export class CompletionPopup {
  readonly element: HTMLElement;
  private options: readonly CompletionOption[] = [];
  private active = 0;
  private onPick: ((index: number) => void) | undefined;

  constructor(
    private readonly doc: Document,
    private readonly input: HTMLTextAreaElement,
    private readonly id: string,
  ) {
    this.element = h(doc, "ul", { class: "completion", attrs: { id, role: "listbox", "aria-label": "Suggestions" } });
    this.element.hidden = true;
    input.setAttribute("aria-controls", id);
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    // mousedown, not click: picking must not take focus away from the textarea first.
    this.element.addEventListener("mousedown", (event) => {
      const option = (event.target as Element).closest<HTMLElement>("[data-index]");
      if (!option) return;
      event.preventDefault();
      this.pick(Number(option.dataset.index));
    });
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  show(options: readonly CompletionOption[], onPick: (index: number) => void): void {
    if (options.length === 0) return this.hide();
    this.options = options;
    this.onPick = onPick;
    this.active = 0;
    this.element.replaceChildren(
      ...options.map((option, i) =>
        h(
          this.doc,
          "li",
          { class: "completion-option", attrs: { id: `${this.id}-${i}`, role: "option", "data-index": String(i) } },
          h(this.doc, "span", { class: "completion-label" }, option.label),
          option.detail ? h(this.doc, "span", { class: "completion-detail" }, option.detail) : null,
        ),
      ),
    );
    this.element.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    this.highlight();
  }

  hide(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.element.replaceChildren();
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
    this.onPick = undefined;
  }

  move(step: number): void {
    this.active = (this.active + step + this.options.length) % this.options.length;
    this.highlight();
  }

  /** Picks the highlighted option (or the given one); false when nothing was open. */
  pick(index = this.active): boolean {
    const onPick = this.onPick;
    if (!this.open || !onPick) return false;
    this.hide();
    onPick(index);
    return true;
  }

  private highlight(): void {
    for (const [i, option] of [...this.element.children].entries())
      option.setAttribute("aria-selected", String(i === this.active));
    const current = this.element.children[this.active] as HTMLElement | undefined;
    if (current) {
      this.input.setAttribute("aria-activedescendant", current.id);
      current.scrollIntoView?.({ block: "nearest" });
    }
  }
}

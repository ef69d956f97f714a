import { errorText, type HostBridge } from "./bridge.js";
import { ListWindow } from "./list-window.js";
import type { RenderContext } from "./render/context.js";
import { h, icon } from "./render/dom.js";
import { createItemView } from "./render/item-view.js";
import type { ChatState } from "./state.js";

export interface TranscriptOptions {
  readonly ctx: RenderContext;
  readonly bridge: HostBridge;
  readonly requestRender: () => void;
  readonly reportError: (message: string) => void;
  /** "Edit & resend" on a user message: its text goes to the composer (main.ts wires it). */
  readonly editMessage: (itemId: string) => void;
}

/**
 * The conversation pane: a windowed log of items, one delegated click handler for every card button and link (no
 * handler per element, none inline), and a "jump to latest" button while the user reads further up.
 */
export class Transcript {
  readonly element: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly list: ListWindow;
  private readonly jump: HTMLButtonElement;
  private busy: boolean | undefined;

  constructor(private readonly options: TranscriptOptions) {
    const { doc } = options.ctx;
    this.scroller = h(doc, "div", {
      class: "transcript",
      attrs: { role: "log", "aria-live": "polite", "aria-label": "Conversation", tabindex: "0" },
    });
    this.jump = h(
      doc,
      "button",
      {
        class: "jump-latest",
        attrs: { type: "button", "aria-label": "Jump to the latest message", title: "Jump to the latest message" },
      },
      icon(doc, "arrow-down"),
    );
    this.jump.hidden = true;
    this.element = h(doc, "div", { class: "transcript-pane" }, this.scroller, this.jump);
    this.list = new ListWindow(this.scroller, (item) => createItemView(item, options.ctx), options.requestRender);
    this.list.onFollowChange((following) => {
      this.jump.hidden = following;
      // Scrolling up brings old rows back into the window: a live log would announce them as new. Only the end of
      // the conversation, while followed, is live.
      this.scroller.setAttribute("aria-live", following ? "polite" : "off");
    });
    this.jump.addEventListener("click", () => {
      this.list.scrollToBottom();
      options.requestRender();
      this.scroller.focus();
    });
    this.scroller.addEventListener("click", (event) => this.onClick(event));
    // "toggle" does not bubble: capture it to remember which sections the user opened or closed.
    this.scroller.addEventListener(
      "toggle",
      (event) => {
        const details = event.target as HTMLDetailsElement;
        const key = details.dataset?.section;
        if (key) options.ctx.sections.remember(key, details.open);
      },
      true,
    );
  }

  render(state: ChatState): void {
    if (state.busy !== this.busy) {
      // While a turn streams, screen readers wait and read the finished reply instead of every token.
      this.busy = state.busy;
      this.scroller.setAttribute("aria-busy", String(state.busy));
    }
    this.list.render(state.items, state.epoch);
  }

  /** Brings the latest pending permission card into view and focuses its first option. */
  focusPermission(state: ChatState): boolean {
    let id: string | undefined;
    for (const entry of state.items)
      if (entry.item.kind === "permission" && entry.item.answer === undefined) id = entry.item.id;
    const card = id ? this.list.reveal(id) : undefined;
    const first = card?.querySelector<HTMLButtonElement>("[data-action=permission-answer]");
    first?.focus();
    return first !== undefined && first !== null;
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const link = target.closest<HTMLAnchorElement>(".markdown a");
    if (link) {
      // Never navigate the webview: the host opens web and mail links outside, after checking the scheme itself.
      // stopPropagation too: VS Code's own page-level handler would otherwise open the link a second time.
      event.preventDefault();
      event.stopPropagation();
      const href = link.getAttribute("href");
      if (href) this.call(this.options.bridge.request("open/link", { href }));
      return;
    }
    const button = target.closest<HTMLButtonElement>("button[data-action]");
    if (!button || button.disabled) return;
    const data = button.dataset;
    const { bridge } = this.options;
    switch (data.action) {
      case "open-location":
        this.call(
          bridge.request("open/location", { path: data.path!, ...(data.line ? { line: Number(data.line) } : {}) }),
        );
        break;
      case "review-decide":
        this.disableGroup(button);
        this.call(
          bridge.request("review/decide", { proposalId: data.proposal!, accept: data.accept === "true" }),
          button,
        );
        break;
      case "review-open-diff":
        this.call(bridge.request("review/openDiff", { proposalId: data.proposal! }));
        break;
      case "permission-answer":
        this.disableGroup(button);
        this.call(bridge.request("permission/answer", { itemId: data.item!, optionId: data.option! }), button);
        break;
      case "checkpoint-restore":
        // One restore at a time; the button comes back whether the user restored or declined.
        button.disabled = true;
        this.call(
          bridge.request("checkpoint/restore", { itemId: data.item! }).finally(() => (button.disabled = false)),
        );
        break;
      case "setup-start":
        this.call(bridge.request("setup/start", { itemId: data.item!, how: setupWay(data.how) }));
        break;
      case "user-retry":
        this.call(bridge.request("chat/retry", {}));
        break;
      case "user-edit":
        this.options.editMessage(data.item!);
        break;
    }
  }

  /** One answer per question: the group's buttons wait for the host (which then re-sends the card). */
  private disableGroup(button: HTMLButtonElement): void {
    for (const sibling of button.parentElement?.querySelectorAll("button") ?? []) sibling.disabled = true;
  }

  private call(request: Promise<unknown>, reenable?: HTMLButtonElement): void {
    request.catch((error: unknown) => {
      if (reenable)
        for (const sibling of reenable.parentElement?.querySelectorAll("button") ?? []) sibling.disabled = false;
      this.options.reportError(errorText(error));
    });
  }
}

function setupWay(how: string | undefined): "here" | "terminal" | "key" {
  return how === "terminal" || how === "key" ? how : "here";
}

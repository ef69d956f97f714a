import { errorText, type HostBridge } from "./bridge.js";
import type { ConfigPicker, SessionSummary, Usage } from "./protocol.js";
import { h, icon } from "./render/dom.js";
import type { ChatState } from "./state.js";

export interface HeaderOptions {
  readonly doc: Document;
  readonly bridge: HostBridge;
  readonly reportError: (message: string) => void;
}

/** 12345 → "12.3k". */
export function compactNumber(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}

/** The session's title, New Chat, earlier sessions, the mode and model pickers, and how full the context is. */
export class Header {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly pickers: HTMLElement;
  private readonly usage: HTMLElement;
  private readonly usageText: HTMLElement;
  private readonly usageFill: HTMLElement;
  private readonly sessionsButton: HTMLButtonElement;
  private readonly sessionList: HTMLElement;
  private shown: { title?: string; pickers?: readonly ConfigPicker[]; usage?: Usage | undefined } = {};

  constructor(private readonly options: HeaderOptions) {
    const { doc, bridge } = options;
    this.title = h(doc, "h1", { class: "title" });
    this.sessionsButton = h(
      doc,
      "button",
      {
        class: "icon-button",
        attrs: {
          type: "button",
          "aria-label": "Earlier sessions",
          title: "Earlier sessions",
          "aria-haspopup": "true",
          "aria-expanded": "false",
        },
      },
      icon(doc, "history"),
    );
    const newChat = h(
      doc,
      "button",
      { class: "icon-button", attrs: { type: "button", "aria-label": "New chat", title: "New chat" } },
      icon(doc, "add"),
    );
    this.pickers = h(doc, "div", { class: "pickers" });
    this.usageText = h(doc, "span", { class: "usage-text" });
    this.usageFill = h(doc, "div", { class: "usage-fill" });
    this.usage = h(
      doc,
      "div",
      { class: "usage" },
      this.usageText,
      h(
        doc,
        "div",
        { class: "usage-bar", attrs: { role: "meter", "aria-label": "Context window used", "aria-valuemin": "0" } },
        this.usageFill,
      ),
    );
    this.usage.hidden = true;
    this.sessionList = h(doc, "div", {
      class: "session-list",
      attrs: { role: "dialog", "aria-label": "Earlier sessions" },
    });
    this.sessionList.hidden = true;
    this.element = h(
      doc,
      "header",
      { class: "header" },
      h(doc, "div", { class: "header-row" }, this.title, this.sessionsButton, newChat),
      this.sessionList,
      h(doc, "div", { class: "header-row" }, this.pickers, this.usage),
    );

    newChat.addEventListener("click", () => this.call(bridge.request("chat/new", {})));
    this.sessionsButton.addEventListener("click", () =>
      this.sessionList.hidden ? this.openSessions() : this.closeSessions(),
    );
    this.sessionList.addEventListener("click", (event) => {
      const target = (event.target as Element).closest<HTMLElement>("[data-session]");
      if (!target) return;
      this.closeSessions();
      this.call(bridge.request("sessions/open", { sessionId: target.dataset.session! }));
    });
    this.sessionList.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.closeSessions();
      } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const buttons = [...this.sessionList.querySelectorAll<HTMLButtonElement>("button")];
        const at = buttons.indexOf(doc.activeElement as HTMLButtonElement);
        buttons[(at + (event.key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length]?.focus();
      }
    });
    // A click anywhere else closes the session list, as a menu would.
    doc.addEventListener("mousedown", (event) => {
      const target = event.target as Node;
      if (!this.sessionList.hidden && !this.sessionList.contains(target) && !this.sessionsButton.contains(target))
        this.closeSessions(false);
    });
    this.pickers.addEventListener("change", (event) => {
      const select = event.target as HTMLSelectElement;
      const pickerId = select.dataset.picker!;
      const previous = this.shown.pickers?.find((p) => p.id === pickerId)?.currentValue;
      bridge.request("config/set", { pickerId, value: select.value }).catch((error: unknown) => {
        if (previous !== undefined) select.value = previous;
        options.reportError(errorText(error));
      });
    });
  }

  update(state: ChatState): void {
    if (state.title !== this.shown.title) {
      this.title.textContent = state.title || "Hermes";
      this.shown.title = state.title;
    }
    if (state.pickers !== this.shown.pickers) {
      this.renderPickers(state.pickers);
      this.shown.pickers = state.pickers;
    }
    if (state.usage !== this.shown.usage) {
      this.renderUsage(state.usage);
      this.shown.usage = state.usage;
    }
  }

  private renderPickers(pickers: readonly ConfigPicker[]): void {
    const { doc } = this.options;
    this.pickers.replaceChildren(
      ...pickers.map((picker) => {
        const select = h(doc, "select", {
          class: "picker",
          attrs: { "data-picker": picker.id, "aria-label": picker.name, title: picker.name },
        });
        for (const choice of picker.choices) {
          const option = h(doc, "option", { attrs: { value: choice.value, title: choice.description } }, choice.name);
          option.selected = choice.value === picker.currentValue;
          select.append(option);
        }
        return select;
      }),
    );
  }

  private renderUsage(usage: Usage | undefined): void {
    this.usage.hidden = !usage;
    if (!usage) return;
    const fraction = usage.size > 0 ? Math.min(1, usage.used / usage.size) : 0;
    const cost = usage.cost ? ` · ${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : "";
    this.usageText.textContent = `${compactNumber(usage.used)} / ${compactNumber(usage.size)} tokens${cost}`;
    this.usageFill.style.width = `${(fraction * 100).toFixed(1)}%`;
    this.usageFill.classList.toggle("high", fraction >= 0.8);
    const bar = this.usageFill.parentElement!;
    bar.setAttribute("aria-valuemax", String(usage.size));
    bar.setAttribute("aria-valuenow", String(usage.used));
    bar.setAttribute("aria-valuetext", `${Math.round(fraction * 100)}% of the context window`);
  }

  private openSessions(): void {
    const { doc, bridge } = this.options;
    this.sessionList.replaceChildren(
      h(doc, "div", { class: "session-loading" }, icon(doc, "loading", "codicon-modifier-spin"), "Loading sessions…"),
    );
    this.sessionList.hidden = false;
    this.sessionsButton.setAttribute("aria-expanded", "true");
    bridge.request("sessions/list", {}).then(
      ({ sessions }) => {
        if (this.sessionList.hidden) return;
        this.sessionList.replaceChildren(
          sessions.length
            ? h(doc, "ul", {}, ...sessions.map((s) => this.sessionEntry(s)))
            : h(doc, "div", { class: "session-empty" }, "No earlier sessions."),
        );
        this.sessionList.querySelector<HTMLButtonElement>("button")?.focus();
      },
      (error: unknown) => {
        this.closeSessions();
        this.options.reportError(errorText(error));
      },
    );
  }

  private sessionEntry(session: SessionSummary): HTMLElement {
    const { doc } = this.options;
    const when = session.updatedAt ? new Date(session.updatedAt) : undefined;
    const date = when && !Number.isNaN(when.getTime()) ? when.toLocaleString() : "";
    return h(
      doc,
      "li",
      {},
      h(
        doc,
        "button",
        {
          class: "session-entry",
          attrs: {
            type: "button",
            "data-session": session.sessionId,
            "aria-current": session.current ? "true" : undefined,
          },
        },
        icon(doc, session.current ? "comment-discussion" : "history"),
        h(doc, "span", { class: "session-title" }, session.title || "Untitled session"),
        date ? h(doc, "span", { class: "session-date" }, date) : null,
      ),
    );
  }

  private closeSessions(refocus = true): void {
    this.sessionList.hidden = true;
    this.sessionsButton.setAttribute("aria-expanded", "false");
    if (refocus) this.sessionsButton.focus();
  }

  private call(request: Promise<unknown>): void {
    request.catch((error: unknown) => this.options.reportError(errorText(error)));
  }
}

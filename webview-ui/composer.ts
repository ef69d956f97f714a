import { errorText, type HostBridge } from "./bridge.js";
import { CompletionPopup } from "./completion.js";
import {
  applyCommand,
  applyMention,
  InputHistory,
  imageProblem,
  matchCommands,
  mentionQuery,
  slashQuery,
} from "./composer-logic.js";
import type { Attachment, SlashCommand } from "./protocol.js";
import { h, icon } from "./render/dom.js";
import { attachmentChip } from "./render/simple.js";
import type { ChatState } from "./state.js";

/** Wait this long after the last keystroke before asking the host for files (it searches the whole workspace). */
const MENTION_DEBOUNCE_MS = 150;
const MAX_INPUT_HEIGHT = 240;

export interface ComposerOptions {
  readonly doc: Document;
  readonly bridge: HostBridge;
  readonly draft: string;
  readonly history: string[];
  /** Called when the draft or history changed, to keep them across reloads of the view. */
  readonly persist: (draft: string, history: readonly string[]) => void;
  readonly reportError: (message: string) => void;
}

/**
 * Where the user writes: Enter sends, Shift+Enter breaks the line, ↑/↓ walk the history from the first/last line,
 * `/` completes commands, `@` completes workspace files, pasted or dropped images become attachments.
 */
export class Composer {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly cancel: HTMLButtonElement;
  private readonly chips: HTMLElement;
  private readonly popup: CompletionPopup;
  private readonly history: InputHistory;
  private commands: readonly SlashCommand[] = [];
  private attachments: readonly Attachment[] | undefined;
  private busy = false;
  private mentionTimer: ReturnType<typeof setTimeout> | undefined;
  private mentionSeq = 0;
  /** The user message being edited ("Edit & resend"): sending replaces it and what came after it. */
  private editing: string | undefined;
  private readonly editBanner: HTMLElement;

  constructor(private readonly options: ComposerOptions) {
    const { doc } = options;
    this.history = new InputHistory(options.history);
    this.input = h(doc, "textarea", {
      class: "prompt",
      attrs: { rows: "1", "aria-label": "Message Hermes", placeholder: "Ask Hermes… (/ commands, @ files)" },
    });
    this.input.value = options.draft;
    this.popup = new CompletionPopup(doc, this.input, "composer-suggestions");
    this.chips = h(doc, "div", {
      class: "chips composer-chips",
      attrs: { "aria-label": "Attachments for the next message" },
    });
    const attach = h(
      doc,
      "button",
      {
        class: "icon-button",
        attrs: {
          type: "button",
          "aria-label": "Attach the active file or selection",
          title: "Attach the active file or selection",
        },
      },
      icon(doc, "attach"),
    );
    this.cancel = h(
      doc,
      "button",
      {
        class: "button secondary",
        attrs: { type: "button", "aria-label": "Cancel the running turn", title: "Cancel (Esc)" },
      },
      icon(doc, "debug-stop"),
      "Cancel",
    );
    this.send = h(
      doc,
      "button",
      { class: "button primary", attrs: { type: "button", "aria-label": "Send", title: "Send (Enter)" } },
      icon(doc, "send"),
      "Send",
    );
    this.cancel.hidden = true;
    const stopEditing = h(
      doc,
      "button",
      { class: "button secondary", attrs: { type: "button", title: "Stop editing (Esc)" } },
      "Stop editing",
    );
    this.editBanner = h(
      doc,
      "div",
      { class: "edit-banner", attrs: { role: "status" } },
      icon(doc, "edit"),
      h(doc, "span", {}, "Editing an earlier message: sending it takes back that message and everything after it."),
      stopEditing,
    );
    this.editBanner.hidden = true;
    this.element = h(
      doc,
      "div",
      { class: "composer" },
      this.editBanner,
      this.chips,
      this.popup.element,
      this.input,
      h(
        doc,
        "div",
        { class: "composer-actions" },
        attach,
        h(doc, "span", { class: "spacer-flex" }),
        this.cancel,
        this.send,
      ),
    );

    attach.addEventListener("click", () => this.call(this.options.bridge.request("attachments/addActive", {})));
    this.send.addEventListener("click", () => this.submit());
    stopEditing.addEventListener("click", () => this.stopEditing(true));
    this.cancel.addEventListener("click", () => this.call(this.options.bridge.request("chat/cancel", {})));
    this.chips.addEventListener("click", (event) => {
      const remove = (event.target as Element).closest<HTMLElement>("[data-remove]");
      if (remove) this.call(this.options.bridge.request("attachments/remove", { id: remove.dataset.remove! }));
    });
    this.input.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.input.addEventListener("input", () => this.onInput());
    this.input.addEventListener("blur", () => this.popup.hide());
    this.input.addEventListener("paste", (event) => this.takeImages(event, event.clipboardData));
    this.element.addEventListener("dragover", (event) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    });
    this.element.addEventListener("drop", (event) => this.takeImages(event, event.dataTransfer));
    this.resize();
  }

  focus(): void {
    this.input.focus();
  }

  /** "Edit & resend": the message's text in the composer; sending it undoes that message and the turns after it. */
  edit(itemId: string, text: string): void {
    this.editing = itemId;
    this.editBanner.hidden = false;
    this.setText(text);
    this.focus();
  }

  private stopEditing(clear: boolean): void {
    this.editing = undefined;
    this.editBanner.hidden = true;
    if (clear) this.setText("");
  }

  update(state: ChatState): void {
    this.commands = state.commands;
    if (state.busy !== this.busy) {
      this.busy = state.busy;
      this.cancel.hidden = !state.busy;
      this.send.disabled = state.busy;
    }
    if (state.attachments !== this.attachments) {
      this.attachments = state.attachments;
      const { doc } = this.options;
      this.chips.replaceChildren(
        ...state.attachments.map((attachment) =>
          attachmentChip(
            doc,
            attachment,
            h(
              doc,
              "button",
              {
                class: "chip-remove",
                attrs: {
                  type: "button",
                  "data-remove": attachment.id,
                  "aria-label": `Remove ${attachment.label}`,
                  title: "Remove",
                },
              },
              icon(doc, "close"),
            ),
          ),
        ),
      );
      this.chips.hidden = state.attachments.length === 0;
    }
  }

  private submit(): void {
    const text = this.input.value;
    // While a turn runs only `/queue <text>` goes out: the server answers it at once and runs the text next.
    if (!text.trim() || (this.busy && !isQueueCommand(text))) return;
    this.history.push(text);
    const replaces = this.editing;
    this.stopEditing(true);
    this.options.bridge.request("chat/prompt", { text, ...(replaces ? { replaces } : {}) }).catch((error: unknown) => {
      // The turn never started: give the words back rather than lose them.
      if (!this.input.value) this.setText(text);
      this.options.reportError(errorText(error));
    });
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    if (this.popup.open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        this.popup.move(event.key === "ArrowDown" ? 1 : -1);
        return;
      }
      if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
        event.preventDefault();
        this.popup.pick();
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        this.popup.hide();
        return;
      }
    }
    const { selectionStart, selectionEnd, value } = this.input;
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      this.submit();
    } else if (event.key === "Escape" && this.busy) {
      event.preventDefault();
      this.call(this.options.bridge.request("chat/cancel", {}));
    } else if (event.key === "Escape" && this.editing) {
      event.preventDefault();
      this.stopEditing(true);
    } else if (event.key === "ArrowUp" && selectionStart === 0 && selectionEnd === 0) {
      const previous = this.history.previous(value);
      if (previous !== undefined) {
        event.preventDefault();
        this.setText(previous, 0);
      }
    } else if (event.key === "ArrowDown" && selectionStart === value.length && selectionEnd === value.length) {
      const next = this.history.next();
      if (next !== undefined) {
        event.preventDefault();
        this.setText(next);
      }
    }
  }

  private onInput(): void {
    this.resize();
    this.persist();
    const { value, selectionStart } = this.input;
    const slash = slashQuery(value, selectionStart);
    if (slash !== undefined) {
      const matches = matchCommands(this.commands, slash);
      this.popup.show(
        matches.map((c) => ({
          label: `/${c.name.replace(/^\//, "")}${c.hint ? ` ${c.hint}` : ""}`,
          detail: c.description,
        })),
        (i) => {
          const applied = applyCommand(this.input.value, matches[i]!);
          this.setText(applied.text, applied.caret);
        },
      );
      return;
    }
    const mention = mentionQuery(value, selectionStart);
    clearTimeout(this.mentionTimer);
    if (!mention) {
      this.popup.hide();
      return;
    }
    const seq = ++this.mentionSeq;
    this.mentionTimer = setTimeout(() => {
      this.options.bridge.request("files/search", { query: mention.query }).then(
        ({ files }) => {
          // A newer keystroke asked again: this answer is stale.
          if (seq !== this.mentionSeq) return;
          this.popup.show(
            files.map((file) => ({ label: file.path })),
            (i) => {
              const file = files[i]!;
              const applied = applyMention(
                this.input.value,
                mention,
                this.input.selectionStart,
                file.path,
                file.reference,
              );
              this.setText(applied.text, applied.caret);
            },
          );
        },
        (error: unknown) => this.options.reportError(errorText(error)),
      );
    }, MENTION_DEBOUNCE_MS);
  }

  private takeImages(event: Event, data: DataTransfer | null): void {
    const files = [...(data?.files ?? [])].filter((file) => file.type.startsWith("image/"));
    if (files.length === 0) return;
    event.preventDefault();
    for (const file of files) {
      const problem = imageProblem(file.type, file.size);
      if (problem) {
        this.options.reportError(problem);
        continue;
      }
      readBase64(file).then(
        (base64) =>
          this.call(
            this.options.bridge.request("attachments/addImage", {
              name: file.name || "pasted image",
              mimeType: file.type,
              data: base64,
            }),
          ),
        () => this.options.reportError(`Could not read ${file.name || "the pasted image"}.`),
      );
    }
  }

  private setText(text: string, caret = text.length): void {
    this.input.value = text;
    this.input.setSelectionRange(caret, caret);
    this.resize();
    this.persist();
  }

  private resize(): void {
    // Grow with the text up to a limit, then scroll (CSSOM writes are allowed by the CSP; inline style markup is not).
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, MAX_INPUT_HEIGHT)}px`;
  }

  private persist(): void {
    this.options.persist(this.input.value, this.history.all);
  }

  private call(request: Promise<unknown>): void {
    request.catch((error: unknown) => this.options.reportError(errorText(error)));
  }
}

function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener("load", () => resolve(String(reader.result).replace(/^data:[^,]*,/, "")));
    reader.addEventListener("error", () => reject(reader.error ?? new Error("read failed")));
    reader.readAsDataURL(file);
  });
}

function isQueueCommand(text: string): boolean {
  return /^\/queue\s+\S/.test(text.trim());
}

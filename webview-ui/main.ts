import { createMessageConnection } from "vscode-jsonrpc/browser";
import { connectToHost, errorText } from "./bridge.js";
import { Composer } from "./composer.js";
import { Header } from "./header.js";
import { SectionMemory } from "./render/context.js";
import { h } from "./render/dom.js";
import { createSanitizer } from "./sanitize.js";
import { type ChatState, type HostNotification, initialState, reduce } from "./state.js";
import { Transcript } from "./transcript.js";

// Wiring only: the bridge feeds the reducer, and one animation frame draws whatever changed since the last one.

/** What the view keeps across reloads (VS Code's webview state): never the conversation, only the user's typing. */
interface SavedState {
  readonly draft?: string;
  readonly history?: string[];
}

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
};

const vscode = acquireVsCodeApi();
const saved = vscode.getState() ?? {};
const bridge = connectToHost(vscode, window, createMessageConnection);
const ctx = { doc: document, sanitizer: createSanitizer(window), sections: new SectionMemory() };

const status = h(document, "div", { class: "status-line", attrs: { role: "alert" } });
status.hidden = true;
let statusTimer: ReturnType<typeof setTimeout> | undefined;
function reportError(message: string): void {
  status.textContent = message;
  status.hidden = false;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => (status.hidden = true), 10_000);
}

let state: ChatState = initialState;
let _frame: number | undefined;
function requestRender(): void {
  _frame ??= requestAnimationFrame(() => {
    _frame = undefined;
    header.update(state);
    transcript.render(state);
    composer.update(state);
  });
}

let persistTimer: ReturnType<typeof setTimeout> | undefined;
const header = new Header({ doc: document, bridge, reportError });
const transcript = new Transcript({
  ctx,
  bridge,
  requestRender,
  reportError,
  editMessage: (itemId) => {
    const item = state.items.get(itemId)?.item;
    if (item?.kind === "user") composer.edit(itemId, item.text);
  },
});
const composer = new Composer({
  doc: document,
  bridge,
  draft: saved.draft ?? "",
  history: saved.history ?? [],
  reportError,
  persist: (draft, history) => {
    clearTimeout(persistTimer);
    persistTimer = setTimeout(() => vscode.setState({ draft, history: [...history] }), 300);
  },
});
document.body.replaceChildren(
  h(document, "main", { class: "app" }, header.element, transcript.element, status, composer.element),
);

function dispatch(notification: HostNotification): void {
  const next = reduce(state, notification);
  if (next.epoch !== state.epoch) ctx.sections.clear();
  if (next !== state) {
    state = next;
    requestRender();
  }
}

bridge.onNotification("chat/snapshot", (params) => dispatch({ method: "chat/snapshot", params }));
bridge.onNotification("chat/item", (params) => dispatch({ method: "chat/item", params }));
bridge.onNotification("chat/append", (params) => dispatch({ method: "chat/append", params }));
bridge.onNotification("chat/busy", (params) => dispatch({ method: "chat/busy", params }));
bridge.onNotification("chat/title", (params) => dispatch({ method: "chat/title", params }));
bridge.onNotification("chat/commands", (params) => dispatch({ method: "chat/commands", params }));
bridge.onNotification("chat/pickers", (params) => dispatch({ method: "chat/pickers", params }));
bridge.onNotification("chat/usage", (params) => dispatch({ method: "chat/usage", params }));
bridge.onNotification("chat/attachments", (params) => dispatch({ method: "chat/attachments", params }));
bridge.onNotification("chat/focus", ({ target }) => {
  // After the frame that draws the latest state, so a permission card that just arrived can take focus.
  requestAnimationFrame(() => {
    if (target === "permission" && transcript.focusPermission(state)) return;
    composer.focus();
  });
});

bridge.request("view/ready", {}).then(
  (snapshot) => {
    dispatch({ method: "chat/snapshot", params: snapshot });
    composer.focus();
  },
  (error: unknown) => reportError(`Could not load the conversation: ${errorText(error)}`),
);
requestRender();

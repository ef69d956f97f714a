import type { HostToWebview, TranscriptEntry, WebviewToHost } from "./protocol.js";

// A minimal chat view (the full one is the chat-view issue): the transcript as plain text nodes (model output never
// reaches innerHTML), a composer, Send and Cancel.
declare function acquireVsCodeApi(): { postMessage(message: WebviewToHost): void };

const vscode = acquireVsCodeApi();
const transcript = document.getElementById("transcript")!;
const input = document.getElementById("input") as HTMLTextAreaElement;
const send = document.getElementById("send") as HTMLButtonElement;
const cancel = document.getElementById("cancel") as HTMLButtonElement;
const nodes = new Map<number, HTMLElement>();

function render(entry: TranscriptEntry): void {
  let node = nodes.get(entry.id);
  if (!node) {
    node = document.createElement("div");
    node.className = `entry ${entry.role}`;
    node.setAttribute("role", "article");
    nodes.set(entry.id, node);
    transcript.appendChild(node);
  }
  node.textContent = entry.text;
  transcript.scrollTop = transcript.scrollHeight;
}

function setBusy(busy: boolean): void {
  send.disabled = busy;
  cancel.hidden = !busy;
}

window.addEventListener("message", (event: MessageEvent<HostToWebview>) => {
  const message = event.data;
  if (message.type === "snapshot") {
    transcript.replaceChildren();
    nodes.clear();
    message.entries.forEach(render);
    setBusy(message.busy);
  } else if (message.type === "upsert") {
    render(message.entry);
  } else {
    setBusy(message.busy);
  }
});

function submit(): void {
  const text = input.value.trim();
  if (!text) return;
  vscode.postMessage({ type: "prompt", text });
  input.value = "";
}

send.addEventListener("click", submit);
cancel.addEventListener("click", () => vscode.postMessage({ type: "cancel" }));
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    submit();
  }
});
vscode.postMessage({ type: "ready" });

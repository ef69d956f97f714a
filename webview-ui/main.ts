import type { WebviewToHost } from "./protocol.js";

// The chat view's browser code (chat-view issue). For now it only tells the host that it has loaded.
declare function acquireVsCodeApi(): { postMessage(message: WebviewToHost): void };

acquireVsCodeApi().postMessage({ type: "loaded" });

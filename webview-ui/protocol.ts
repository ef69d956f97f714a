/** Messages between the extension host and the chat webview, discriminated by `type` (chat-view issue). */
export type HostToWebview = { readonly type: "ready" };
export type WebviewToHost = { readonly type: "loaded" };

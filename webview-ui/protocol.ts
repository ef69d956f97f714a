/** One entry of the conversation as the chat view shows it. */
export interface TranscriptEntry {
  readonly id: number;
  readonly role: "user" | "agent" | "thought" | "tool" | "notice";
  readonly text: string;
}

/** Host → webview. The host owns the conversation; the view only renders what it is sent. */
export type HostToWebview =
  | { readonly type: "snapshot"; readonly entries: readonly TranscriptEntry[]; readonly busy: boolean }
  | { readonly type: "upsert"; readonly entry: TranscriptEntry }
  | { readonly type: "busy"; readonly busy: boolean };

/** Webview → host. */
export type WebviewToHost = { readonly type: "ready" } | { readonly type: "prompt"; readonly text: string } | { readonly type: "cancel" };

/**
 * The conversation as the engine keeps it: OpenAI-format roles (system, user, assistant with tool calls, tool
 * results), independent of any SDK. Each provider maps this to its own wire format.
 */
export interface ToolCallRecord {
  readonly id: string;
  readonly name: string;
  /** The raw JSON text of the arguments, exactly as the model produced it. */
  readonly arguments: string;
}

/** The image formats every vision API here accepts (OpenAI, Anthropic, Gemini through OpenRouter). */
export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** An image the user attached to a message, already checked (see image-parts.ts). */
export interface ImageAttachment {
  readonly mimeType: ImageMimeType;
  /** The image bytes, base64 without a `data:` prefix. */
  readonly data: string;
  /** Decoded size in bytes. */
  readonly bytes: number;
  /** What the user calls it (a file name), when known. */
  readonly name?: string;
}

export interface UserMessage {
  readonly role: "user";
  readonly content: string;
  /**
   * Images sent with the text, after it. Kept beside `content` (not in it) so everything that reads a message as
   * text (compression, search, titles, replay) keeps working; only the providers put them on the wire.
   */
  readonly images?: readonly ImageAttachment[];
}

export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string;
  readonly toolCalls?: readonly ToolCallRecord[];
  /** Reasoning text the model streamed (kept for replay; not sent back to providers that reject it). */
  readonly reasoning?: string;
  /**
   * Anthropic's thinking blocks exactly as they came, signatures included: a tool-use continuation must send them
   * back unchanged or the API refuses it. Kept in memory only (a reloaded session has its reasoning text, not these).
   */
  readonly signedThinking?: readonly SignedThinking[];
}

/** A thinking block Anthropic signed (its text and signature), or redacted thinking (opaque, encrypted data). */
export type SignedThinking =
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | { readonly type: "redacted_thinking"; readonly data: string };

export interface ToolResultMessage {
  readonly role: "tool";
  readonly toolCallId: string;
  readonly content: string;
}

export type ChatMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool offered to the model, described by a JSON Schema for its arguments. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object. */
  readonly parameters: object;
}

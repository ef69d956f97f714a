import type { ContentBlock } from "@agentclientprotocol/sdk";
import {
  contextBudget,
  decodeAttachmentText,
  estimateTokens,
  IMAGE_TOKEN_ESTIMATE,
  type ImageAttachment,
  MAX_ATTACHMENT_BYTES,
  readAttachedFile,
  type Workspace,
} from "../../agent/index.js";
import { pathFromFileUri } from "./prompt-files.js";
import { isImageBlob } from "./prompt-images.js";

export interface AttachmentContext {
  readonly workspace: Workspace;
  readonly cwd: string;
  readonly userHome: string;
  readonly hermesHome: string;
  /** The model's window in tokens: attachments may fill a quarter of it before the user is warned, half at most. */
  readonly contextLength: number;
}

export interface PromptMessage {
  /** The user's message: what they typed and what they attached, in the order the client sent it. */
  readonly text: string;
  /** Only what the user typed: @ references are looked for here, never in an attached file. */
  readonly typed: string;
  /** Attached image files, for a vision model. */
  readonly images: readonly ImageAttachment[];
  /** Attachments that were not added, and why, for the user. */
  readonly refused: readonly string[];
  /** Set when the attachments fill more than a quarter of the model's window. */
  readonly largeNotice?: string;
}

/** One block's share of the message; `tokens` is set when it carries content (and so counts against the budget). */
interface Part {
  readonly text: string;
  readonly tokens?: number;
  readonly image?: ImageAttachment;
  /** The header alone, what the model reads when the budget refuses the content. */
  readonly header?: string;
}

const NON_FILE_BODY = "[Resource link only; Hermes cannot read non-file ACP resource URIs directly.]";

/**
 * The user's message from an ACP prompt, as upstream's adapter builds it (hermes-behaviour.md §8.2): text as typed;
 * resource links to local files inlined under `[Attached file: name]` (images as images), other links named;
 * embedded resources likewise. Files are read through the session's workspace (the editor's unsaved buffers) and
 * under the @file guards. Image blocks and embedded images travel separately (prompt-images.ts).
 */
export async function composePromptMessage(
  blocks: readonly ContentBlock[],
  context: AttachmentContext,
): Promise<PromptMessage> {
  const parts: Part[] = [];
  const typed: string[] = [];
  const refused: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ text: block.text });
        typed.push(block.text);
        break;
      case "resource_link":
        parts.push(await linkPart(block, context, refused));
        break;
      case "resource":
        if (!isImageBlob(block)) parts.push(embeddedPart(block.resource));
        break;
      case "audio":
        parts.push({ text: "[An audio clip was attached; this model connection does not accept audio.]" });
        break;
      case "image":
        break;
    }
  }
  const tokens = parts.reduce((sum, p) => sum + (p.tokens ?? 0), 0);
  const { hard, soft } = contextBudget(context.contextLength);
  if (tokens > hard) {
    // As with @ references: over half the window, none of it is attached (the model would have no room to work).
    const why = `the attachments come to ${tokens} tokens, over the 50% limit (${hard}) of the model's context window`;
    return {
      text: join(parts.map((p) => (p.tokens === undefined ? p.text : `${p.header}\n\n[Not attached: ${why}]`))),
      typed: join(typed),
      images: [],
      refused: [
        ...refused,
        `${tokens} tokens of attachments exceed the 50% hard limit (${hard}) of the model's context window.`,
      ],
    };
  }
  return {
    text: join(parts.map((p) => p.text)),
    typed: join(typed),
    images: parts.flatMap((p) => (p.image ? [p.image] : [])),
    refused,
    ...(tokens > soft
      ? {
          largeNotice: `The attachments come to ${tokens} tokens, over a quarter (${soft}) of the model's context window; the conversation will need compressing sooner.`,
        }
      : {}),
  };
}

async function linkPart(
  block: Extract<ContentBlock, { type: "resource_link" }>,
  context: AttachmentContext,
  refused: string[],
): Promise<Part> {
  const uri = block.uri.trim();
  const display = displayName(uri, block.name, block.title);
  const path = pathFromFileUri(uri);
  if (!path) return { text: attachmentText(display, uri, NON_FILE_BODY) };
  const file = await readAttachedFile(path, {
    ...context,
    display,
    ...(block.mimeType ? { mimeType: block.mimeType } : {}),
  });
  if (file.problem) refused.push(file.problem);
  if (file.image) {
    const header = `[Attached image: ${display}]\nURI: ${uri}`;
    return { text: header, header: attachmentHeader(display, uri), image: file.image, tokens: IMAGE_TOKEN_ESTIMATE };
  }
  const text = attachmentText(display, uri, file.body, file.note);
  return file.inlined
    ? { text, header: attachmentHeader(display, uri, file.note), tokens: estimateTokens(file.body) }
    : { text };
}

/** A selection or a file the client sent whole: its text (or decoded blob) under the same header. */
function embeddedPart(resource: Extract<ContentBlock, { type: "resource" }>["resource"]): Part {
  const uri = resource.uri;
  const display = displayName(uri);
  let body: string;
  if ("text" in resource) {
    body = resource.text;
  } else {
    const data = Buffer.from(resource.blob, "base64");
    const mime = resource.mimeType ?? "";
    const decoded = decodeAttachmentText(
      data.subarray(0, MAX_ATTACHMENT_BYTES),
      mime,
      data.length > MAX_ATTACHMENT_BYTES,
    );
    if (!decoded)
      return {
        text: attachmentText(
          display,
          uri,
          `[Binary embedded file omitted: ${data.length} bytes, mime=${mime || "unknown"}]`,
        ),
      };
    body =
      decoded.text +
      (data.length > MAX_ATTACHMENT_BYTES ? `\n\n[Truncated to ${MAX_ATTACHMENT_BYTES} of ${data.length} bytes]` : "");
  }
  return {
    text: attachmentText(display, uri, body),
    header: attachmentHeader(display, uri),
    tokens: estimateTokens(body),
  };
}

/** Upstream's `_format_resource_text`: `[Attached file: name] (note)`, the URI, a blank line, the body. */
function attachmentText(display: string, uri: string, body: string, note?: string): string {
  return `${attachmentHeader(display, uri, note)}\n\n${body}`;
}

function attachmentHeader(display: string, uri: string, note?: string): string {
  return `[Attached file: ${display}]${note ? ` (${note})` : ""}\nURI: ${uri}`;
}

/** Upstream's `_resource_display_name`: "title (name)", the title or the name, else the URI's file name. */
export function displayName(uri: string, name?: string | null, title?: string | null): string {
  const n = name?.trim() ?? "";
  const t = title?.trim() ?? "";
  if (t && n && t !== n) return `${t} (${n})`;
  if (t || n) return t || n;
  const path = pathFromFileUri(uri) ?? uri.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/*/, "/").split(/[?#]/)[0]!;
  return path.split(/[/\\]/).filter(Boolean).pop() || uri || "resource";
}

function join(texts: readonly string[]): string {
  return texts.filter((t) => t !== "").join("\n\n");
}

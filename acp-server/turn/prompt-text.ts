import type { ContentBlock } from "@agentclientprotocol/sdk";
import { isImageBlob } from "./prompt-images.js";

/**
 * An ACP prompt as plain text, for telling a slash command and titling the session: text as written, attachments
 * named. The message the model gets, with attached files inlined, is built by prompt-attachments.ts.
 */
export function promptToText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link":
        parts.push(`[Attached file: ${block.name}]\nURI: ${block.uri}`);
        break;
      case "resource":
        if (isImageBlob(block)) break; // an image: it travels as one (prompt-images.ts)
        if ("text" in block.resource) parts.push(`[Attached file: ${block.resource.uri}]\n\n${block.resource.text}`);
        else parts.push(`[Attached binary resource: ${block.resource.uri}]`);
        break;
      case "image":
        // Images travel beside the text (prompt-images.ts); a model without vision is told about them there.
        break;
      case "audio":
        parts.push("[An audio clip was attached; this model connection does not accept audio.]");
        break;
    }
  }
  return parts.join("\n\n");
}

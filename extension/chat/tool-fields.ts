import type * as acp from "@agentclientprotocol/sdk";
import { TOOL_IMAGE_TYPES, type ToolImage, type ToolItem, type ToolKind } from "../../webview-ui/protocol.js";
import { diffView } from "./diff-view.js";

/** ACP content as the chat shows it: text, links and images as placeholders. */
export function contentText(block: acp.ContentBlock): string {
  if (block.type === "text") return block.text;
  if (block.type === "resource_link") return `[${block.name}]`;
  if (block.type === "image") return "[image]";
  return "";
}

/** The most pictures one card keeps, and the largest (base64 characters): screenshots, not archives. */
const MAX_IMAGES = 4;
const MAX_IMAGE_CHARS = 8 * 1024 * 1024;

/** The pictures among a call's content that the card can show: known image types, plain base64, bounded. */
function toolImages(content: readonly acp.ToolCallContent[]): ToolImage[] {
  const images: ToolImage[] = [];
  for (const c of content) {
    if (c.type !== "content" || c.content.type !== "image") continue;
    const { mimeType, data } = c.content;
    const type = TOOL_IMAGE_TYPES.find((t) => t === mimeType);
    if (!type || data.length > MAX_IMAGE_CHARS || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) continue;
    images.push({ mimeType: type, data });
  }
  return images.slice(0, MAX_IMAGES);
}

/** An image block the card shows as a picture needs no "[image]" placeholder in the output as well. */
const shownAsImage = (block: acp.ContentBlock, images: readonly ToolImage[]): boolean =>
  block.type === "image" && images.some((image) => image.data === block.data);

/** A tool card with the fields an ACP `tool_call` or `tool_call_update` carries applied to it. */
export function toolFields(
  item: ToolItem,
  fields: acp.ToolCallUpdate | acp.ToolCall,
  label: (path: string) => string,
  terminalOutput: (terminalId: string) => string | undefined,
): ToolItem {
  const content = fields.content ?? undefined;
  const images = content ? toolImages(content) : [];
  return {
    ...item,
    ...(fields.title ? { title: fields.title } : {}),
    ...(fields.kind ? { toolKind: fields.kind as ToolKind } : {}),
    ...(fields.status ? { status: fields.status } : {}),
    ...(fields.locations
      ? {
          locations: fields.locations.map((l) => ({
            path: l.path,
            label: label(l.path),
            ...(typeof l.line === "number" ? { line: l.line } : {}),
          })),
        }
      : {}),
    // ACP replaces a call's content wholesale on each update that carries it.
    ...(content
      ? {
          output: content
            .map((c) =>
              c.type === "content"
                ? shownAsImage(c.content, images)
                  ? ""
                  : contentText(c.content)
                : c.type === "terminal"
                  ? (terminalOutput(c.terminalId) ?? "").trimEnd()
                  : "",
            )
            .filter(Boolean)
            .join("\n"),
          images,
          diffs: item.review
            ? item.diffs
            : content.flatMap((c) =>
                c.type === "diff" ? [diffView(c.path, label(c.path), c.oldText ?? null, c.newText)] : [],
              ),
        }
      : {}),
  };
}

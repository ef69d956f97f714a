import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { describeToolCall, describeToolResult, type ToolResult } from "../../agent/index.js";

/** How a tool call looks in an editor: the kind drives the icon, the title is what the user reads. */
export interface ToolCallView {
  readonly title: string;
  readonly kind: ToolKind;
  readonly locations: ToolCallLocation[];
  readonly content: ToolCallContent[];
}

type Args = Readonly<Record<string, unknown>> | undefined;

/** Text content shown for a finished call is capped like upstream's (5,000 characters). */
const MAX_SHOWN_CHARS = 5000;

const textContent = (text: string): ToolCallContent[] => [{ type: "content", content: { type: "text", text } }];

/** The call as the tool describes itself (agent/session/tool-catalog.ts), in ACP's shape. */
export function toolCallStartView(name: string, args: Args, cwd: string): ToolCallView {
  const call = describeToolCall(name, args, cwd);
  return {
    title: call.title,
    kind: call.kind,
    locations: call.locations.map((location) => ({ ...location })),
    content: call.runningText === undefined ? [] : textContent(call.runningText),
  };
}

/** The finished call: as its tool shows a result when it says (delegate_task's results), else diffs and text. */
export function toolCallEndView(name: string, result: ToolResult): ToolCallContent[] {
  const shown = describeToolResult(name, result);
  return shown === undefined ? toolCallEndContent(result) : textContent(shown);
}

/** The finished call: diffs for edits (whole-file texts), then the result text, then any pictures (a screenshot). */
export function toolCallEndContent(result: ToolResult): ToolCallContent[] {
  const content: ToolCallContent[] = (result.edits ?? []).map((edit) => ({
    type: "diff",
    path: edit.path,
    oldText: edit.oldText,
    newText: edit.newText ?? "",
  }));
  const text =
    result.content.length > MAX_SHOWN_CHARS
      ? `${result.content.slice(0, MAX_SHOWN_CHARS)}\n... (${result.content.length} chars total, truncated)`
      : result.content;
  if (text) content.push(...textContent(text));
  for (const image of result.images ?? [])
    content.push({ type: "content", content: { type: "image", data: image.data, mimeType: image.mimeType } });
  return content;
}

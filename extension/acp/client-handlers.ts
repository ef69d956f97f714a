import * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import { currentText } from "../review/apply-edit.js";
import type { ReviewController } from "../review/review-controller.js";

/** `fs/read_text_file`: the open document when there is one (unsaved changes included), else the disk. */
export async function readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
  const text = await currentText(vscode.Uri.file(params.path));
  if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
  if (!params.line && !params.limit) return { content: text };
  const lines = text.split("\n");
  const start = Math.max(0, (params.line ?? 1) - 1);
  return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join("\n") };
}

/**
 * `fs/write_text_file` never writes directly: it becomes an edit proposal the user reviews. Accepted, the reply says
 * what was kept when only some hunks were; rejected, the agent gets an error marked `reason: "rejected"` (our server
 * then reports it instead of writing to disk behind the user's back).
 */
export async function writeTextFile(
  params: acp.WriteTextFileRequest,
  review: ReviewController,
): Promise<acp.WriteTextFileResponse> {
  const outcome = await review.propose(vscode.Uri.file(params.path), params.content);
  if (outcome.kind === "rejected")
    throw new acp.RequestError(-32603, "The user rejected this edit", { reason: "rejected" });
  return outcome.partial ? { _meta: { hermes: { keptText: outcome.text } } } : {};
}

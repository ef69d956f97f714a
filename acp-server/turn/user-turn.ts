import { homedir } from "node:os";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { expandContextReferences, type ImageAttachment, runtimeSeesImages } from "../../agent/index.js";
import type { AcpSession } from "../session/acp-session.js";
import { composePromptMessage } from "./prompt-attachments.js";
import { promptFilePaths } from "./prompt-files.js";
import { promptImages } from "./prompt-images.js";

// When the model's window is unknown, budget @ references and attachments as for a 128k-token model.
const DEFAULT_CONTEXT_TOKENS = 128_000;

export interface UserTurn {
  /** What the user sent: the words, attached files and @ references expanded (not yet the editor's context). */
  readonly text: string;
  /**
   * The message for the model: `text`, where the user is looking in the editor, and the subdirectory hints of the
   * files the prompt names or the editor opened. Taking those marks them as told for the session, so it is called
   * only once the model is about to be: a prompt that ends before (cancelled, Hermes not ready, only refused
   * images) leaves that folder's AGENTS.md and the cursor for the next prompt.
   */
  readonly message: () => string;
  /** Images sent with the text (already checked). */
  readonly images: readonly ImageAttachment[];
  /** Things the user should hear about their prompt (a refused or oversized @ reference or attachment, a refused image). */
  readonly warnings: readonly string[];
  /** Set when the attached files fill more than a quarter of the model's window (they were still attached). */
  readonly largeAttachmentsNotice?: string;
  /** Set when the images will not be seen: the model has no vision, so it is told about them in words instead. */
  readonly unseenImagesNotice?: string;
}

/**
 * Builds the user's message from an ACP prompt: the text and attachments (attached files inlined, see
 * prompt-attachments.ts), @ references in the typed text expanded, where the user is
 * looking in the editor, and the subdirectory hints of every file the prompt names (attached, selected, referenced)
 * or the editor opened since the last turn, added to this turn (never to the system prompt, never a model call)
 * when its `message` is taken.
 */
export async function buildUserTurn(
  session: AcpSession,
  blocks: readonly ContentBlock[],
  signal: AbortSignal,
): Promise<UserTurn> {
  const ready = session.ready;
  const contextLength = (ready.ok ? ready.conversation.runtime.contextLength : undefined) ?? DEFAULT_CONTEXT_TOKENS;
  const where = { cwd: session.cwd, userHome: homedir(), hermesHome: ready.config.home, contextLength };
  const message = await composePromptMessage(blocks, { ...where, workspace: session.workspace });
  const expansion = await expandContextReferences(message.text, { ...where, signal, referenceText: message.typed });
  const named = [...promptFilePaths(blocks), ...expansion.paths];
  const withEditorContext = () => {
    // Taken, not heard as an event: what the editor opened since the last turn belongs to the turn whose model is
    // called next, and only this function knows that moment (see `message` above).
    const editor = session.documents.take();
    // `session.hints` at the time of the call: a session that became ready just now has a new tracker.
    const attachedHints = session.hints.checkPaths(named, "attachment") ?? "";
    const openedHints = session.hints.checkPaths(editor.paths, "opened file") ?? "";
    // Only where the cursor is, never the file's text: the model reads the file itself if it needs to.
    const focus = editor.focus
      ? `\n\n[The user is looking at ${editor.focus.path}:${editor.focus.line + 1} in the editor]`
      : "";
    return expansion.message + focus + attachedHints + openedHints;
  };
  const { images: imageBlocks, refused } = promptImages(
    blocks,
    ready.ok ? ready.conversation.runtime.apiMode : undefined,
  );
  const images = [...imageBlocks, ...message.images];
  const runtime = ready.ok ? ready.conversation.runtime : undefined;
  return {
    text: expansion.message,
    message: withEditorContext,
    images,
    warnings: [...(expansion.blocked ? expansion.warnings : []), ...message.refused, ...refused],
    ...(message.largeNotice ? { largeAttachmentsNotice: message.largeNotice } : {}),
    ...(images.length > 0 && runtime && !runtimeSeesImages(runtime)
      ? { unseenImagesNotice: unseenNotice(runtime.model, images.length) }
      : {}),
  };
}

function unseenNotice(model: string, count: number): string {
  const images = count === 1 ? "the image was" : `the ${count} images were`;
  return `${model} cannot see images, so it was only told that ${images} attached. Switch to a vision-capable model, or set model.supports_vision: true in config.yaml if this model does accept images.`;
}

import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { Attachment } from "../../webview-ui/protocol.js";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

interface Pending {
  readonly attachment: Attachment;
  readonly block: acp.ContentBlock;
}

/**
 * What the user added to the next prompt: files (resource links: the agent reads them through the editor, and their
 * folders' hints apply), selections (embedded text with file and lines) and images (inline, for vision models).
 */
export class ChatAttachments {
  private pending: Pending[] = [];
  private counter = 0;

  constructor(private readonly changed: (attachments: readonly Attachment[]) => void) {}

  get list(): readonly Attachment[] {
    return this.pending.map((p) => p.attachment);
  }

  addFile(uri: vscode.Uri): Attachment {
    const label = vscode.workspace.asRelativePath(uri);
    return this.push(
      { id: this.nextId(), kind: "file", label, uri: uri.toString() },
      { type: "resource_link", uri: uri.toString(), name: label },
    );
  }

  addSelection(uri: vscode.Uri, text: string, startLine: number, endLine: number): Attachment {
    const label = `${vscode.workspace.asRelativePath(uri)}:${startLine + 1}-${endLine + 1}`;
    return this.push(
      { id: this.nextId(), kind: "selection", label, uri: uri.toString() },
      {
        type: "resource",
        resource: { uri: `${uri.toString()}#L${startLine + 1}-L${endLine + 1}`, text, mimeType: "text/plain" },
      },
    );
  }

  /** Text from outside any file (a terminal's selection): embedded, shown as a selection chip named `label`. */
  addText(label: string, text: string): Attachment {
    const uri = `hermes-context:/${encodeURIComponent(label)}`;
    return this.push(
      { id: this.nextId(), kind: "selection", label },
      { type: "resource", resource: { uri, text, mimeType: "text/plain" } },
    );
  }

  /** The active editor's selection, or the whole file when nothing is selected; undefined without an editor. */
  addActive(): Attachment | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    const { document, selection } = editor;
    if (selection.isEmpty) return this.addFile(document.uri);
    return this.addSelection(document.uri, document.getText(selection), selection.start.line, selection.end.line);
  }

  /** An image pasted into the composer. Throws with a readable reason when it is not one we can send. */
  addImage(name: string, mimeType: string, data: string): Attachment {
    if (!IMAGE_TYPES.has(mimeType)) throw new Error(`${name}: only PNG, JPEG, GIF and WebP images can be attached.`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw new Error(`${name}: the image data is not valid base64.`);
    if ((data.length * 3) / 4 > MAX_IMAGE_BYTES) throw new Error(`${name}: images over 5 MB cannot be attached.`);
    return this.push({ id: this.nextId(), kind: "image", label: name }, { type: "image", mimeType, data });
  }

  remove(id: string): void {
    this.pending = this.pending.filter((p) => p.attachment.id !== id);
    this.changed(this.list);
  }

  /** Hands over everything pending (for the prompt being sent) and starts a new empty list. */
  take(): { attachments: Attachment[]; blocks: acp.ContentBlock[] } {
    const taken = this.pending.splice(0);
    if (taken.length) this.changed(this.list);
    return { attachments: taken.map((p) => p.attachment), blocks: taken.map((p) => p.block) };
  }

  private push(attachment: Attachment, block: acp.ContentBlock): Attachment {
    this.pending.push({ attachment, block });
    this.changed(this.list);
    return attachment;
  }

  private nextId(): string {
    return `a${++this.counter}`;
  }
}

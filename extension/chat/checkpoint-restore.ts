import { realpathSync } from "node:fs";
import * as vscode from "vscode";
import type { CheckpointItem } from "../../webview-ui/protocol.js";
import type { AgentConnection } from "../acp/agent-connection.js";
import type { CheckpointPreview } from "../acp/checkpoint-wire.js";
import { PreviewDocuments } from "../review/preview-documents.js";
import { type RestoreQuestion, restoredLine, restoreQuestion } from "./restore-question.js";

export const CHECKPOINT_SCHEME = "hermes-checkpoint";

/** Asks the user whether to restore; true means restore. */
export type ConfirmRestore = (question: RestoreQuestion) => Promise<boolean>;

/** VS Code's modal warning; it adds Cancel itself, and closing the dialog counts as Cancel. */
export const confirmInModal: ConfirmRestore = async ({ message, detail }) =>
  (await vscode.window.showWarningMessage(message, { modal: true, detail }, "Restore")) === "Restore";

/**
 * "Restore files to before this turn" from the chat: the server's preview of every file the restore changes, shown as
 * one multi-file diff (left: the checkpoint's text, served read-only from memory; right: the file on disk), then a
 * modal question naming the files. Only a yes restores, and only the files the user saw.
 */
export class CheckpointRestorer implements vscode.Disposable {
  readonly documents = new PreviewDocuments(CHECKPOINT_SCHEME);
  /** How the user is asked. Integration tests put an answer here: the extension host cannot click a modal dialog. */
  confirm: ConfirmRestore = confirmInModal;
  private shown: vscode.Uri[] = [];

  /** The chat line to add once restored, or undefined when nothing was (already restored, or the user declined). */
  async restore(
    connection: AgentConnection,
    item: CheckpointItem,
    label: (path: string) => string,
  ): Promise<string | undefined> {
    const preview = await connection.previewCheckpoint(item.checkpoint);
    if (preview.files.length === 0) {
      void vscode.window.showInformationMessage("The files are already as they were before this turn.");
      return undefined;
    }
    await this.showChanges(preview, `Restore to before turn ${item.turn}`);
    const question = restoreQuestion(
      preview.files.map((f) => ({
        label: label(f.path),
        change: f.change,
        dirty: openDocument(f.path)?.isDirty === true,
        ...(f.binary ? { hidden: "binary" as const } : f.tooLarge ? { hidden: "too large" as const } : {}),
      })),
    );
    if (!(await this.confirm(question))) return undefined;
    const result = await connection.restoreCheckpoint(
      preview.checkpoint,
      preview.files.map((f) => f.path),
    );
    await reloadUnsavedEditors(result.restored.map((r) => r.path));
    return restoredLine(result.restored.length, item.turn, result.undoCheckpoint !== undefined);
  }

  dispose(): void {
    this.documents.dispose();
  }

  private async showChanges(preview: CheckpointPreview, title: string): Promise<void> {
    for (const uri of this.shown) this.documents.delete(uri);
    this.shown = [];
    const resources = preview.files.map((file) => {
      const onDisk = vscode.Uri.file(file.path);
      const before = this.serve(onDisk, preview.checkpoint, "before", file.before ?? "");
      // A file deleted since is not on disk: its right side is an empty document, so the diff shows it coming back.
      const now = file.change === "deleted" ? this.serve(onDisk, preview.checkpoint, "now", "") : onDisk;
      return [onDisk, before, now] as const;
    });
    await vscode.commands.executeCommand("vscode.changes", title, resources);
  }

  private serve(file: vscode.Uri, checkpoint: string, side: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: file.path, query: `${side}=${checkpoint}` });
    this.documents.set(uri, text);
    this.shown.push(uri);
    return uri;
  }
}

/** The open document of a file, matched on resolved paths: the server names files by their real path. */
function openDocument(path: string): vscode.TextDocument | undefined {
  const real = realPathOr(path);
  return vscode.workspace.textDocuments.find(
    (d) => d.uri.scheme === "file" && (d.uri.fsPath === path || realPathOr(d.uri.fsPath) === real),
  );
}

function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * A document without unsaved changes reloads from disk by itself. One with unsaved changes does not: its editor would
 * keep the turn's text, and saving it would write the turn back over the restore. The question said those changes
 * are discarded, so each such document gets the restored file's text and is saved (the same bytes as on disk), which
 * leaves it clean. Not the Revert command: it acts on the active editor, and with the multi-file diff just opened
 * that was now and then another one.
 */
async function reloadUnsavedEditors(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const document = openDocument(path);
    if (!document?.isDirty) continue;
    let restored: string;
    try {
      restored = new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri));
    } catch {
      continue; // Created by the turn, so removed: its editor says the file is gone; nothing to reload.
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), restored);
    if (await vscode.workspace.applyEdit(edit)) await document.save();
  }
}

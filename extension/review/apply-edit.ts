import * as vscode from "vscode";

/** The file's current text: the open document (unsaved changes included) or the disk; undefined when it does not exist. */
export async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/**
 * Writes accepted text as a WorkspaceEdit (so it is undoable and respects an open buffer), then saves the document.
 * A file that does not exist yet is created first.
 */
export async function applyText(uri: vscode.Uri, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const exists = (await currentText(uri)) !== undefined;
  if (!exists) {
    edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(text) });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused to create ${uri.fsPath}`);
    return;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
  edit.replace(uri, whole, text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${uri.fsPath}`);
  await document.save();
}

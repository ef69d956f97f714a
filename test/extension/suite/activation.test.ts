/**
 * The extension loads and activates inside real VS Code, in the workspace the runner opened.
 * Runs in the extension host (npm run test:extension), not under the unit-test mocha.
 */
import * as assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import * as vscode from "vscode";

const EXTENSION_ID = "hermes-for-editors.hermes-editor-agent";

describe("extension activation", () => {
  it("is installed as the extension under development", () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    // code-server skips an extension whose engines.vscode is above its 1.100.3 and says so only in its own log.
    assert.ok(
      extension,
      `${EXTENSION_ID} is not among the loaded extensions (look for "not compatible" under user/logs/)`,
    );
    assert.equal(extension.packageJSON.name, "hermes-editor-agent");
  });

  it("activates without throwing", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it("contributes the getting-started walkthrough, its pages, and the setup command it links to", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const walkthroughs = extension.packageJSON.contributes.walkthroughs as Array<{
      id: string;
      steps: Array<{ id: string; media: { markdown: string } }>;
    }>;
    const start = walkthroughs.find((w) => w.id === "hermes.start");
    assert.deepEqual(
      start?.steps.map((s) => s.id),
      ["configure", "ask", "review", "restore"],
    );
    for (const step of start!.steps) {
      const page = vscode.Uri.joinPath(extension.extensionUri, step.media.markdown);
      assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(page)), /^# /);
    }
    const commands = await vscode.commands.getCommands(true);
    for (const id of ["hermes.setup", "hermes.setApiKey", "hermes.fixDiagnostic"]) assert.ok(commands.includes(id), id);
  });

  it("sees the runner's temporary workspace", async () => {
    const expected = process.env.HERMES_E2E_WORKSPACE;
    assert.ok(expected, "HERMES_E2E_WORKSPACE is not set: run through test/extension/run-in-code-server.ts");
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    assert.equal(realpathSync(folders[0].uri.fsPath), realpathSync(expected));

    // The file the runner created is readable through VS Code's file system, and found by its search (ripgrep).
    const readme = vscode.Uri.joinPath(folders[0].uri, "README.md");
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(readme));
    assert.match(text, /Hermes e2e workspace/);
    const found = await vscode.workspace.findFiles("**/*.md");
    assert.deepEqual(
      found.map((uri) => uri.path.split("/").pop()),
      ["README.md"],
    );
  });
});

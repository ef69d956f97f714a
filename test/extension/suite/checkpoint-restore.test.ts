/**
 * "Restore files to before this turn" from the chat, inside real VS Code with the real hermes-acp: a scripted turn
 * edits one file and creates another (both reviewed and accepted), the chat's checkpoint card restores them after a
 * multi-file diff and the question, and the disk and the open editor (even with unsaved typing) show the old text.
 */
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RestoreQuestion } from "../../../extension/chat/restore-question.js";
import type { HermesApi } from "../../../extension/extension.js";
import type { CheckpointItem } from "../../../webview-ui/protocol.js";
import { type ScriptedLlm, scriptedCall } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

describe("restoring files from the chat", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let workspace: string;
  let original: HermesApi["chat"]["checkpoints"]["confirm"];
  const asked: RestoreQuestion[] = [];
  let answer = true;

  before(async () => {
    ({ api, llm, workspace } = await startScriptedHermes());
    original = api.chat.checkpoints.confirm;
    // The one seam: VS Code's modal cannot be clicked from the extension host, so the test answers the question it
    // would have shown (and records it). Everything before and after it is the path the chat's button takes.
    api.chat.checkpoints.confirm = async (question) => {
      asked.push(question);
      return answer;
    };
  });

  after(async () => {
    api.chat.checkpoints.confirm = original;
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  const file = (name: string) => join(workspace, name);
  const checkpoints = () => api.chat.snapshot.items.filter((i): i is CheckpointItem => i.kind === "checkpoint");

  /** A turn that rewrites `edited` and creates `created`, each edit accepted in the review as a user would. */
  async function changingTurn(edited: string, created: string): Promise<CheckpointItem> {
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("w1", "write_file", { path: edited, content: "after\n" })] },
      { kind: "tool_calls", calls: [scriptedCall("w2", "write_file", { path: created, content: "new\n" })] },
      { kind: "text", chunks: ["Changed both."] },
    );
    const before = checkpoints().length;
    const turn = api.chat.prompt("change the files");
    for (let i = 0; i < 2; i++) {
      await until(() => api.review.pendingCount === 1, `proposal ${i + 1}`);
      await vscode.commands.executeCommand("hermes.acceptEdit");
    }
    assert.equal(await turn, "end_turn");
    assert.equal(readFileSync(file(edited), "utf8"), "after\n");
    assert.equal(readFileSync(file(created), "utf8"), "new\n");
    assert.equal(checkpoints().length, before + 1, "the turn's checkpoint shows in the chat");
    return checkpoints().at(-1)!;
  }

  it("shows the changes, asks, and restores the disk and the open editor", async () => {
    writeFileSync(file("restore-me.txt"), "before\n");
    const item = await changingTurn("restore-me.txt", "created-by-turn.txt");
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file("restore-me.txt")));
    await until(() => editor.document.getText() === "after\n", "the editor to show the turn's text");
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), "typed, not saved\n"));
    assert.equal(editor.document.isDirty, true);

    answer = true;
    await api.chat.restoreCheckpoint(item.id);

    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.message, "Restore 2 files to before this turn?");
    assert.match(asked[0]!.detail, /^created-by-turn\.txt: created since, removed$/m);
    assert.match(asked[0]!.detail, /^restore-me\.txt: edits undone$/m);
    assert.match(asked[0]!.detail, /Unsaved changes in restore-me\.txt are discarded/);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    // VS Code adds the count to the title: "Restore to before turn 1 (2 files)".
    assert.ok(
      tabs.some((label) => label.startsWith(`Restore to before turn ${item.turn} (`)),
      `the multi-file diff is open: ${tabs.join(", ")}`,
    );
    const left = vscode.Uri.from({
      scheme: "hermes-checkpoint",
      path: vscode.Uri.file(file("restore-me.txt")).path,
      query: `before=${item.checkpoint}`,
    });
    assert.equal((await vscode.workspace.openTextDocument(left)).getText(), "before\n", "its left side");

    assert.equal(readFileSync(file("restore-me.txt"), "utf8"), "before\n");
    assert.equal(existsSync(file("created-by-turn.txt")), false, "the file the turn created is gone");
    await until(() => editor.document.getText() === "before\n", "the open editor to show the restored text").catch(
      (error: Error) => {
        const doc = editor.document;
        throw new Error(
          `${error.message}: ${JSON.stringify(doc.getText())}, dirty ${doc.isDirty}, closed ${doc.isClosed}`,
        );
      },
    );
    assert.equal(editor.document.isDirty, false);
    const notice = api.chat.snapshot.items.at(-1);
    assert.equal(notice?.kind, "notice");
    assert.match(
      notice?.kind === "notice" ? notice.text : "",
      new RegExp(`^Restored 2 files to before turn ${item.turn}\\. .*\`/rollback 1\` undoes the restore\\.$`),
    );
  });

  it("restores nothing when the user cancels", async () => {
    writeFileSync(file("keep-me.txt"), "before\n");
    const item = await changingTurn("keep-me.txt", "also-created.txt");
    const count = api.chat.snapshot.items.length;
    answer = false;
    await api.chat.restoreCheckpoint(item.id);
    assert.equal(asked.at(-1)?.message, "Restore 2 files to before this turn?");
    assert.equal(readFileSync(file("keep-me.txt"), "utf8"), "after\n");
    assert.equal(readFileSync(file("also-created.txt"), "utf8"), "new\n");
    assert.equal(api.chat.snapshot.items.length, count, "nothing added to the chat");
  });
});

/**
 * "Edit & resend" and "Retry" on the chat's messages, inside real VS Code with the real hermes-acp: what the model
 * is sent afterwards, what the chat shows, and the files of an undone turn offered back through a permission card.
 */
import * as assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ChatItem } from "../../../webview-ui/protocol.js";
import { type ScriptedLlm, scriptedCall } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes, until } from "../helpers/scripted-hermes.js";

/** Each item as the user reads it, with the actions a message offers. */
function shown(items: readonly ChatItem[]): string[] {
  return items.flatMap((i) => {
    if (i.kind === "user") return [`user ${i.text}${i.canEdit ? " [edit]" : ""}${i.canRetry ? " [retry]" : ""}`];
    if (i.kind === "agent") return [`agent ${i.markdown.split("\n")[0]}`];
    if (i.kind === "permission" || i.kind === "checkpoint") return [i.kind];
    return [];
  });
}

describe("Edit & resend and Retry in VS Code", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let workspace: string;

  before(async () => {
    ({ api, llm, workspace } = await startScriptedHermes());
    await api.chat.newChat();
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  /** The user messages of the model's last request: the conversation as the model now sees it. */
  const userMessages = () =>
    llm.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === "user")
      .map((m) => String(m.content));

  it("takes a message and what followed it back (offering its files), then sends the edited text", async () => {
    const file = join(workspace, "undo-me.txt");
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("u1", "write_file", { path: "undo-me.txt", content: "turn\n" })] },
      { kind: "text", chunks: ["written"] },
    );
    const first = api.chat.prompt("write the file");
    await until(() => api.review.pendingCount === 1, "the proposal");
    await vscode.commands.executeCommand("hermes.acceptEdit");
    assert.equal(await first, "end_turn");
    assert.equal(readFileSync(file, "utf8"), "turn\n");
    llm.enqueue({ kind: "text", chunks: ["two"] });
    await api.chat.prompt("second message");
    const message = api.chat.snapshot.items.find((i) => i.kind === "user" && i.text === "write the file")!;

    llm.enqueue({ kind: "text", chunks: ["written differently"] });
    const resent = api.chat.resend(message.id, "write it differently");
    const cards = () => api.chat.snapshot.items.flatMap((i) => (i.kind === "permission" ? [i] : []));
    await until(() => cards().some((c) => c.answer === undefined), "the offer to restore the undone turns' files");
    const card = cards().at(-1)!;
    api.chat.permissions.answer(card.id, card.options.find((o) => o.kind === "allow_once")!.optionId);
    assert.equal(await resent, "end_turn");

    assert.equal(existsSync(file), false, "the file the undone turn created is gone");
    assert.deepEqual(
      userMessages().filter((m) => /write the file|second message|write it differently/.test(m)),
      ["write it differently"],
      "the model no longer sees the undone exchanges",
    );
    const items = shown(api.chat.snapshot.items);
    const gone = ["user write the file [edit]", "agent written", "user second message [edit]", "agent two"];
    assert.deepEqual(
      items.filter((i) => gone.includes(i)),
      [],
      "the undone messages and replies leave the chat",
    );
    assert.deepEqual(items.slice(-5), [
      "user /undo 2",
      "permission",
      `agent ${items.at(-3)!.slice("agent ".length)}`,
      "user write it differently [edit] [retry]",
      "agent written differently",
    ]);
    assert.match(items.at(-3)!, /^agent Took the last 2 exchanges/);
  });

  it("runs the latest message again in place of its reply", async () => {
    const before = llm.requests.length;
    llm.enqueue({ kind: "text", chunks: ["another way"] });
    assert.equal(await api.chat.retry(), "end_turn");
    assert.equal(llm.requests.length, before + 1);
    assert.deepEqual(
      userMessages().filter((m) => /write it differently/.test(m)),
      ["write it differently"],
      "the message once, its old reply gone",
    );
    assert.ok(
      !llm.requests.at(-1)!.body.messages.some((m) => m.role === "assistant" && m.content === "written differently"),
    );
    assert.deepEqual(shown(api.chat.snapshot.items).slice(-2), [
      "user write it differently [edit] [retry]",
      "agent another way",
    ]);
  });
});

/**
 * The extension against the real hermes-acp and the scripted LLM endpoint, inside real VS Code (code-server):
 * streaming, edit review (diff, accept, reject, per-hunk), unsaved buffers reaching the agent, server restart.
 */
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import { ScriptedLlm, scriptedCall } from "../../fixtures/scripted-llm.js";
import { until } from "../helpers/scripted-hermes.js";

const call = scriptedCall;

describe("chat and review in VS Code", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let workspace: string;

  before(async () => {
    llm = await ScriptedLlm.start();
    const home = mkdtempSync(join(tmpdir(), "hermes-ext-home-"));
    writeFileSync(
      join(home, "config.yaml"),
      `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${llm.baseUrl}\n  max_retries: 0\n  supports_vision: true\n`,
    );
    // The server inherits the extension host's environment.
    process.env.HERMES_HOME = home;
    workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    api = (await vscode.extensions.getExtension("hermes-for-editors.hermes-editor-agent")!.activate()) as HermesApi;
  });

  after(async () => {
    await api.chat.newChat();
    await llm.close();
  });

  const lastAgentText = () => api.chat.snapshot.items.flatMap((e) => (e.kind === "agent" ? [e.markdown] : [])).at(-1);
  const lastToolResult = (request: number) =>
    String(llm.requests[request]!.body.messages.filter((m) => m.role === "tool").at(-1)!.content);
  const diffTabs = () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === "hermes-review");

  it("streams a reply into the chat", async () => {
    llm.enqueue({ kind: "text", chunks: ["Hello ", "from ", "Hermes."] });
    assert.equal(await api.chat.prompt("say hello"), "end_turn");
    assert.equal(lastAgentText(), "Hello from Hermes.");
  });

  it("opens a diff for an edit proposal and writes the file only on accept", async () => {
    const file = join(workspace, "accept.txt");
    writeFileSync(file, "one\ntwo\n");
    const start = llm.requests.length;
    llm.enqueue(
      { kind: "tool_calls", calls: [call("a1", "write_file", { path: "accept.txt", content: "one\nTWO\n" })] },
      { kind: "text", chunks: ["done"] },
    );
    const turn = api.chat.prompt("capitalise two");
    await until(() => api.review.pendingCount === 1, "the proposal");
    await until(() => diffTabs().length === 1, "the diff tab");
    assert.equal(readFileSync(file, "utf8"), "one\ntwo\n", "nothing is written before the user decides");
    await vscode.commands.executeCommand("hermes.acceptEdit");
    assert.equal(await turn, "end_turn");
    assert.equal(readFileSync(file, "utf8"), "one\nTWO\n");
    assert.equal(diffTabs().length, 0, "the diff closes");
    assert.match(lastToolResult(start + 1), /Wrote 2 lines to accept\.txt/);
  });

  it("leaves the file alone on reject and tells the agent", async () => {
    const file = join(workspace, "reject.txt");
    writeFileSync(file, "keep me\n");
    const start = llm.requests.length;
    llm.enqueue(
      { kind: "tool_calls", calls: [call("r1", "write_file", { path: "reject.txt", content: "replaced\n" })] },
      { kind: "text", chunks: ["ok"] },
    );
    const turn = api.chat.prompt("replace it");
    await until(() => api.review.pendingCount === 1, "the proposal");
    await vscode.commands.executeCommand("hermes.rejectEdit");
    await turn;
    assert.equal(readFileSync(file, "utf8"), "keep me\n");
    assert.match(lastToolResult(start + 1), /The user rejected this edit/);
  });

  it("keeps only the accepted hunks of a partial accept", async () => {
    const file = join(workspace, "partial.txt");
    writeFileSync(file, "a\nb\nc\nd\ne\nf\ng\n");
    const start = llm.requests.length;
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [call("p1", "write_file", { path: "partial.txt", content: "A\nb\nc\nd\ne\nf\nG\n" })],
      },
      { kind: "text", chunks: ["ok"] },
    );
    const turn = api.chat.prompt("capitalise a and g");
    await until(() => api.review.pendingCount === 1, "the proposal");
    const [proposal] = api.review.pending();
    assert.equal(proposal!.hunks.length, 2);
    await vscode.commands.executeCommand("hermes.acceptHunk", proposal!.id, 0);
    await vscode.commands.executeCommand("hermes.rejectHunk", proposal!.id, 1);
    await turn;
    assert.equal(readFileSync(file, "utf8"), "A\nb\nc\nd\ne\nf\ng\n");
    assert.match(lastToolResult(start + 1), /kept only part of this change/);
  });

  it("shows a proposal again, instead of applying it, when its file changed meanwhile", async () => {
    const file = join(workspace, "moving.txt");
    writeFileSync(file, "base\n");
    llm.enqueue(
      { kind: "tool_calls", calls: [call("m1", "write_file", { path: "moving.txt", content: "agent\n" })] },
      { kind: "text", chunks: ["ok"] },
    );
    const turn = api.chat.prompt("rewrite moving.txt");
    await until(() => api.review.pendingCount === 1, "the proposal");
    writeFileSync(file, "changed by the user\n");
    await vscode.commands.executeCommand("hermes.acceptEdit");
    assert.equal(readFileSync(file, "utf8"), "changed by the user\n", "not applied blindly over the user's change");
    assert.equal(api.review.pendingCount, 1, "shown again against the new text");
    assert.deepEqual(
      api.review.pending()[0]!.hunks.map((h) => [h.removed, h.added]),
      [[["changed by the user"], ["agent"]]],
    );
    await vscode.commands.executeCommand("hermes.acceptEdit");
    await turn;
    assert.equal(readFileSync(file, "utf8"), "agent\n");
  });

  it("accepts an edit from its card in the chat", async () => {
    const file = join(workspace, "card.txt");
    writeFileSync(file, "from card\n");
    llm.enqueue(
      { kind: "tool_calls", calls: [call("c1", "write_file", { path: "card.txt", content: "FROM CARD\n" })] },
      { kind: "text", chunks: ["ok"] },
    );
    const turn = api.chat.prompt("shout card.txt");
    const reviewed = () => api.chat.snapshot.items.flatMap((i) => (i.kind === "tool" && i.review ? [i] : []));
    await until(() => reviewed().some((i) => i.review?.status === "pending"), "the tool card with Accept / Reject");
    const card = reviewed().at(-1)!;
    assert.equal(card.diffs[0]?.label, "card.txt");
    assert.deepEqual([card.diffs[0]?.added, card.diffs[0]?.removed], [1, 1]);
    await api.review.decide(card.review!.proposalId, true);
    assert.equal(await turn, "end_turn");
    assert.equal(readFileSync(file, "utf8"), "FROM CARD\n");
    assert.equal(reviewed().at(-1)!.review?.status, "accepted");
  });

  it("asks in the chat before a dangerous command, with the agent's own options", async () => {
    mkdirSync(join(workspace, "scratch"), { recursive: true });
    const start = llm.requests.length;
    llm.enqueue(
      { kind: "tool_calls", calls: [call("d1", "terminal", { command: "rm -rf scratch" })] },
      { kind: "text", chunks: ["removed"] },
    );
    const turn = api.chat.prompt("clean scratch");
    const cards = () => api.chat.snapshot.items.flatMap((i) => (i.kind === "permission" ? [i] : []));
    await until(() => cards().some((c) => c.answer === undefined), "the permission card");
    assert.equal(api.chat.permissions.count, 1);
    const card = cards().at(-1)!;
    assert.ok(card.options.length >= 2, "the agent's options");
    const allow = card.options.find((o) => o.kind === "allow_once")!;
    api.chat.permissions.answer(card.id, allow.optionId);
    assert.equal(await turn, "end_turn");
    assert.equal(cards().at(-1)!.answer, allow.optionId);
    assert.equal(existsSync(join(workspace, "scratch")), false);
    assert.match(lastToolResult(start + 1), /"exit_code":0/);
  });

  it("cancelling the turn closes its waiting permission card", async () => {
    mkdirSync(join(workspace, "kept"), { recursive: true });
    // Only the tool call is scripted: a cancelled turn must not call the model again.
    llm.enqueue({ kind: "tool_calls", calls: [call("k1", "terminal", { command: "rm -rf kept" })] });
    const turn = api.chat.prompt("remove kept");
    const cards = () => api.chat.snapshot.items.flatMap((i) => (i.kind === "permission" ? [i] : []));
    await until(() => cards().some((c) => c.answer === undefined), "the permission card");
    await api.chat.cancel();
    assert.equal(await turn, "cancelled");
    assert.equal(cards().at(-1)!.answer, "cancelled");
    assert.equal(api.chat.permissions.count, 0, "no badge left behind");
    assert.equal(existsSync(join(workspace, "kept")), true);
  });

  it("asks before deleting a file, and a refusal keeps it", async () => {
    const file = join(workspace, "precious.txt");
    writeFileSync(file, "keep\n");
    const start = llm.requests.length;
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          call("x1", "patch", {
            mode: "patch",
            patch: "*** Begin Patch\n*** Delete File: precious.txt\n*** End Patch",
          }),
        ],
      },
      { kind: "text", chunks: ["ok"] },
    );
    const turn = api.chat.prompt("delete precious.txt");
    const cards = () => api.chat.snapshot.items.flatMap((i) => (i.kind === "permission" ? [i] : []));
    await until(() => cards().some((c) => c.answer === undefined), "the permission card");
    const card = cards().at(-1)!;
    assert.equal(card.diffs[0]?.removed, 1);
    api.chat.permissions.answer(card.id, card.options.find((o) => o.kind.startsWith("reject"))!.optionId);
    await turn;
    assert.equal(readFileSync(file, "utf8"), "keep\n");
    assert.match(lastToolResult(start + 1), /denied/);
  });

  it("lets the agent read an unsaved buffer", async () => {
    const file = join(workspace, "unsaved.txt");
    writeFileSync(file, "saved text\n");
    const document = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, 0, 10), "typed but not saved");
    await vscode.workspace.applyEdit(edit);
    assert.equal(document.isDirty, true);
    const start = llm.requests.length;
    llm.enqueue(
      { kind: "tool_calls", calls: [call("u1", "read_file", { path: "unsaved.txt" })] },
      { kind: "text", chunks: ["seen"] },
    );
    await api.chat.prompt("read unsaved.txt");
    assert.match(lastToolResult(start + 1), /1\|typed but not saved/);
    await vscode.commands.executeCommand("workbench.action.files.revert");
  });

  it("sends an added selection with the next prompt", async () => {
    const file = join(workspace, "selected.ts");
    writeFileSync(file, "const a = 1;\nconst b = 2;\n");
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(1, 0, 1, 12);
    await vscode.commands.executeCommand("hermes.addSelection");
    const start = llm.requests.length;
    llm.enqueue({ kind: "text", chunks: ["b is two"] });
    await api.chat.prompt("what is this?");
    const user = String(llm.requests[start]!.body.messages.at(-1)!.content);
    assert.match(
      user,
      /^what is this\?\n\n\[Attached file: selected\.ts\]\nURI: file:\/\/.*selected\.ts#L2-L2\n\nconst b = 2;/,
    );
  });

  it("sends an image pasted into the chat to a vision model", async () => {
    // A real 1×1 PNG, as the composer hands it over (base64, no data: prefix).
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    assert.throws(() => api.chat.attachments.addImage("x.svg", "image/svg+xml", png), /only PNG, JPEG, GIF and WebP/);
    const attachment = api.chat.attachments.addImage("dot.png", "image/png", png);
    assert.deepEqual(
      api.chat.snapshot.attachments.map((a) => a.label),
      ["dot.png"],
    );
    const start = llm.requests.length;
    llm.enqueue({ kind: "text", chunks: ["a dot"] });
    await api.chat.prompt("what is in the picture?");
    const user = llm.requests[start]!.body.messages.at(-1)!;
    assert.ok(Array.isArray(user.content), "text and image parts");
    assert.deepEqual(
      (user.content as Array<{ type: string; image_url?: { url: string } }>).find((p) => p.type === "image_url")
        ?.image_url?.url,
      `data:image/png;base64,${png}`,
    );
    const sent = api.chat.snapshot.items.filter((i) => i.kind === "user").at(-1);
    assert.deepEqual(
      sent?.kind === "user" && sent.attachments.map((a) => a.id),
      [attachment.id],
      "the message shows what it carried",
    );
    assert.deepEqual(api.chat.snapshot.attachments, [], "nothing left pending");
  });

  it("queues a message while a turn runs, with /queue", async () => {
    const start = llm.requests.length;
    llm.enqueue(
      { kind: "text", chunks: ["working ", "on ", "it ", "slowly"], chunkDelayMs: 300 },
      { kind: "text", chunks: ["and the queued one"] },
    );
    const turn = api.chat.prompt("a long answer please");
    await until(() => llm.requests.length > start, "the first model call");
    await assert.rejects(api.chat.prompt("not now"), /still answering/);
    assert.equal(await api.chat.prompt("/queue then summarise"), "end_turn");
    assert.ok(
      api.chat.snapshot.items.some((i) => i.kind === "notice" && /^Queued for the next turn/.test(i.text)),
      "told at once",
    );
    assert.equal(await turn, "end_turn");
    assert.match(String(llm.requests.at(-1)!.body.messages.at(-1)!.content), /then summarise/);
    assert.ok(
      api.chat.snapshot.items.some((i) => i.kind === "user" && i.text.includes("then summarise")),
      "the queued text shows as a message",
    );
    assert.equal(lastAgentText(), "and the queued one");
  });

  it("restarts a server that died, on the next prompt", async () => {
    const pid = api.chat.serverPid;
    assert.ok(pid);
    process.kill(pid, "SIGKILL");
    await until(
      () => api.chat.snapshot.items.some((e) => e.kind === "notice" && e.text.includes("server stopped")),
      "the notice",
    );
    llm.enqueue({ kind: "text", chunks: ["back again"] });
    assert.equal(await api.chat.prompt("are you there?"), "end_turn");
    assert.notEqual(api.chat.serverPid, pid);
    assert.equal(lastAgentText(), "back again");
  });
});

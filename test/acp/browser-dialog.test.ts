import { strict as assert } from "node:assert";
import {
  call,
  refIn,
  resultJson,
  scriptSteps,
  snapshotOf,
  toolEnds,
  toolResults,
  useLocalSite,
} from "../helpers/browser-steps.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

/*
 * browser_dialog against the machine's real Chromium: a page's prompt() and confirm() stay open, are shown to the
 * model in the result of the click that opened them (and in a snapshot), and the model's answer reaches the page.
 */

describe("hermes-acp: browser_dialog over ACP (real Chromium)", function () {
  this.timeout(60_000);
  const site = useLocalSite();
  describe("by default", () => {
    const server = useScriptedServer();

    it("shows a prompt() opened by a click, and accepts it with the model's text", async () => {
      let navigated = "";
      scriptSteps(server, [
        () => call("nav", "browser_navigate", { url: `${site.baseUrl}/dialogs` }),
        (request) => {
          navigated = snapshotOf(request);
          return call("click", "browser_click", { ref: refIn(navigated, 'button "Name boat"') });
        },
        () => call("snap", "browser_snapshot", {}),
        () => call("answer", "browser_dialog", { action: "accept", prompt_text: "Whitby Rose" }),
        () => call("after", "browser_snapshot", {}),
        () => ({ kind: "text", chunks: ["Named."] }),
      ]);
      const sessionId = await server.harness.newSession(server.workspace);
      assert.equal((await server.harness.prompt(sessionId, "name the boat Whitby Rose")).stopReason, "end_turn");

      const results = toolResults(server);
      const click = resultJson(results.get("click")!) as Record<string, unknown> & {
        pending_dialogs: Record<string, unknown>[];
      };
      assert.equal(click.success, true);
      assert.equal(click.clicked, refIn(navigated, 'button "Name boat"'));
      const [dialog] = click.pending_dialogs;
      assert.deepEqual(
        { ...dialog, opened_at: typeof dialog?.opened_at },
        { id: "d-1", type: "prompt", message: "Name your boat", default_prompt: "Skiff", opened_at: "number" },
      );
      assert.match(String(click.note), /call browser_dialog/);
      // While the dialog blocks the page, a snapshot shows the dialog instead of waiting for the page.
      assert.deepEqual(resultJson(results.get("snap")!).pending_dialogs, click.pending_dialogs);

      assert.deepEqual(resultJson(results.get("answer")!), { success: true, action: "accept", dialog });
      assert.match(String(resultJson(results.get("after")!).snapshot), /heading "Boat: Whitby Rose"/);
      assert.equal(resultJson(results.get("after")!).pending_dialogs, undefined);
      assert.deepEqual(
        toolEnds(server).map((e) => [e.toolCallId, e.status]),
        ["nav", "click", "snap", "answer", "after"].map((id) => [id, "completed"]),
      );
    });

    it("dismisses a confirm() (the page takes its cancel branch), and says when no dialog is open", async () => {
      scriptSteps(server, [
        () => call("nav", "browser_navigate", { url: `${site.baseUrl}/dialogs` }),
        (request) =>
          call("click", "browser_click", {
            ref: refIn(snapshotOf(request), 'button "Cast off"'),
          }),
        () => call("answer", "browser_dialog", { action: "dismiss" }),
        () => call("after", "browser_snapshot", {}),
        () => call("again", "browser_dialog", { action: "accept" }),
        () => ({ kind: "text", chunks: ["Staying."] }),
      ]);
      const sessionId = await server.harness.newSession(server.workspace);
      await server.harness.prompt(sessionId, "don't cast off");

      const results = toolResults(server);
      const pending = resultJson(results.get("click")!).pending_dialogs as Record<string, unknown>[];
      assert.deepEqual(
        pending.map((d) => [d.type, d.message]),
        [["confirm", "Cast off now?"]],
      );
      const answer = resultJson(results.get("answer")!) as { action: string; dialog: Record<string, unknown> };
      assert.deepEqual([answer.action, answer.dialog.type], ["dismiss", "confirm"]);
      assert.match(String(resultJson(results.get("after")!).snapshot), /heading "Staying moored"/);
      assert.deepEqual(resultJson(results.get("again")!), { success: false, error: "no dialog is currently open" });
    });
  });

  describe("in read-only mode", () => {
    const answers: string[] = [];
    const readOnly = useScriptedServer({ permission: () => answers.shift() ?? "deny" });

    it("asks before answering a dialog (a denial leaves it open)", async () => {
      answers.push("allow_once", "deny");
      scriptSteps(readOnly, [
        () => call("nav", "browser_navigate", { url: `${site.baseUrl}/dialogs` }),
        (request) =>
          call("click", "browser_click", {
            ref: refIn(snapshotOf(request), 'button "Name boat"'),
          }),
        () => call("answer", "browser_dialog", { action: "accept", prompt_text: "Whitby Rose" }),
        () => call("snap", "browser_snapshot", {}),
        () => ({ kind: "text", chunks: ["Not answered."] }),
      ]);
      const sessionId = await readOnly.harness.newSession(readOnly.workspace);
      await readOnly.harness.agent.request("session/set_mode", { sessionId, modeId: "read_only" });
      await readOnly.harness.prompt(sessionId, "name the boat");

      const results = toolResults(readOnly);
      assert.match(String(resultJson(results.get("answer")!).error), /^Read-only mode: browser_dialog accept acts on/);
      assert.deepEqual(
        readOnly.permissions.map((p) => p.toolCall.toolCallId),
        ["click", "answer"],
      );
      const pending = resultJson(results.get("snap")!).pending_dialogs as Record<string, unknown>[];
      assert.deepEqual(
        pending.map((d) => d.message),
        ["Name your boat"],
      );
    });
  });
});

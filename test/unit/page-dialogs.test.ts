import { strict as assert } from "node:assert";
import type { Dialog } from "playwright-core";
import { PageDialogs } from "../../agent/tools/browser/page-dialogs.js";

/* The held dialogs without a browser: what answers them, and what closes them when the model does not. */

function fakeDialog(type: string, message: string, answers: string[]): Dialog {
  return {
    type: () => type,
    message: () => message,
    defaultValue: () => "",
    accept: async (text?: string) => void answers.push(`accept ${message}${text === undefined ? "" : `: ${text}`}`),
    dismiss: async () => void answers.push(`dismiss ${message}`),
  } as unknown as Dialog;
}

describe("page dialogs", () => {
  it("dismisses a dialog left unanswered past the timeout, and logs it", async () => {
    const log: string[] = [];
    const answers: string[] = [];
    const dialogs = new PageDialogs((text) => log.push(text), 30);
    dialogs.onDialog(fakeDialog("alert", "Tide turning", answers));
    assert.equal(dialogs.pending.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(dialogs.pending, []);
    assert.deepEqual(answers, ["dismiss Tide turning"]);
    assert.deepEqual(log, ["alert: Tide turning (dismissed: not answered within 0.03 s)"]);
  });

  it("asks for dialog_id when two are pending, and wakes a waiter when one opens", async () => {
    const answers: string[] = [];
    const dialogs = new PageDialogs(() => undefined);
    const wait = dialogs.whenOpen();
    dialogs.onDialog(fakeDialog("confirm", "First?", answers));
    await wait.opened;
    dialogs.onDialog(fakeDialog("prompt", "Second?", answers));
    assert.deepEqual(await dialogs.answer(true, "x", undefined), {
      ok: false,
      error: '2 pending dialogs; specify dialog_id. Candidates: ["d-1","d-2"]',
    });
    assert.deepEqual(await dialogs.answer(true, "x", "d-9"), {
      ok: false,
      error: `dialog_id 'd-9' not found (known: ["d-1","d-2"])`,
    });
    assert.equal((await dialogs.answer(true, "Whitby", "d-2")).ok, true);
    // A confirm takes no text: accepted without one.
    assert.equal((await dialogs.answer(true, "ignored", undefined)).ok, true);
    assert.deepEqual(answers, ["accept Second?: Whitby", "accept First?"]);
    assert.deepEqual(await dialogs.answer(false, undefined, undefined), {
      ok: false,
      error: "no dialog is currently open",
    });
  });

  it("dismisses a pending dialog before navigating, and accepts the beforeunload that leaving asks", async () => {
    const log: string[] = [];
    const answers: string[] = [];
    const dialogs = new PageDialogs((text) => log.push(text));
    dialogs.onDialog(fakeDialog("prompt", "Name?", answers));
    await dialogs.leaving(async () => dialogs.onDialog(fakeDialog("beforeunload", "", answers)));
    assert.deepEqual(dialogs.pending, []);
    assert.deepEqual(answers, ["dismiss Name?", "accept "]);
    assert.deepEqual(log, [
      "prompt: Name? (dismissed: before navigating)",
      "beforeunload:  (accepted: while navigating)",
    ]);
  });
});

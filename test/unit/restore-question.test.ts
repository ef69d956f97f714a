import * as assert from "node:assert/strict";
import { offersCheckpoints, responseCheckpoint } from "../../extension/acp/checkpoint-wire.js";
import { restoredLine, restoreQuestion } from "../../extension/chat/restore-question.js";

describe("restore question (the modal before files are restored)", () => {
  it("names each file with what restoring does to it", () => {
    const question = restoreQuestion([
      { label: "src/a.ts", change: "modified", dirty: false },
      { label: "new.txt", change: "added", dirty: false },
      { label: "gone.txt", change: "deleted", dirty: false },
      { label: "logo.png", change: "modified", dirty: false, hidden: "binary" },
    ]);
    assert.equal(question.message, "Restore 4 files to before this turn?");
    assert.equal(
      question.detail,
      [
        "src/a.ts: edits undone",
        "new.txt: created since, removed",
        "gone.txt: deleted since, brought back",
        "logo.png: edits undone (binary, not shown in the diff)",
      ].join("\n"),
    );
  });

  it("says which unsaved changes are discarded", () => {
    const question = restoreQuestion([
      { label: "a.ts", change: "modified", dirty: true },
      { label: "b.ts", change: "modified", dirty: false },
      { label: "c.ts", change: "modified", dirty: true },
    ]);
    assert.match(question.detail, /\n\nUnsaved changes in a\.ts, c\.ts are discarded/);
    assert.equal(
      restoreQuestion([{ label: "a", change: "added", dirty: false }]).message,
      "Restore 1 file to before this turn?",
    );
  });

  it("tells the chat how the restore is undone, when it can be", () => {
    assert.equal(
      restoredLine(3, 2, true),
      "Restored 3 files to before turn 2. The files as they were just before are checkpoint 1 now: `/rollback 1` undoes the restore.",
    );
    assert.equal(restoredLine(1, 5, false), "Restored 1 file to before turn 5.");
  });

  it("reads the server's checkpoint capability and a prompt response's checkpoint", () => {
    assert.equal(offersCheckpoints({ hermes: { checkpoints: true } }), true);
    for (const meta of [undefined, null, {}, { hermes: {} }, { hermes: { checkpoints: "yes" } }])
      assert.equal(offersCheckpoints(meta), false);
    assert.equal(responseCheckpoint({ hermes: { checkpoint: { id: "abc123", number: 1 } } }), "abc123");
    for (const meta of [undefined, { hermes: { checkpoint: { id: 3 } } }, { hermes: { checkpoint: { id: "" } } }])
      assert.equal(responseCheckpoint(meta), undefined);
  });
});

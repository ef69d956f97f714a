import { strict as assert } from "node:assert";
import { firstCheckpointOfTurns } from "../../acp-server/turn/rollback-command.js";
import type { CheckpointEntry } from "../../agent/index.js";

/** Checkpoints newest first, as the store lists them: [id, session, turn]. */
function entries(...rows: Array<[string, string | undefined, number | undefined]>): CheckpointEntry[] {
  return rows.map(([id, sessionId, turn], i) => ({
    number: i + 1,
    id,
    shortId: id,
    time: "2026-12-01T10:00:00+00:00",
    reason: "before write_file",
    ...(turn === undefined ? {} : { turn }),
    ...(sessionId === undefined ? {} : { sessionId }),
    filesChanged: 1,
    insertions: 1,
    deletions: 0,
  }));
}

describe("/undo: which checkpoint holds the workspace before the undone turns", () => {
  it("is the oldest snapshot of this session's turns from the first undone one on", () => {
    const list = entries(["c5", "s", 5], ["c4", "s", 4], ["c2", "s", 2]);
    assert.equal(firstCheckpointOfTurns(list, "s", 4)?.id, "c4");
    assert.equal(firstCheckpointOfTurns(list, "s", 3)?.id, "c4", "turn 3 changed nothing: turn 4's snapshot");
    assert.equal(firstCheckpointOfTurns(list, "s", 6), undefined, "the undone turn changed nothing");
  });

  it("skips other sessions' and upstream's snapshots in the same folder", () => {
    const list = entries(["c5", "s", 5], ["o9", "other", 9], ["pre", undefined, undefined], ["c4", "s", 4]);
    assert.equal(firstCheckpointOfTurns(list, "s", 4)?.id, "c4");
  });

  it("stops at an earlier run of the same turn numbers (turns undone before and run again)", () => {
    // Turn 3 ran, was undone without restoring, and ran again: only the newer run is this undo's.
    const list = entries(["c3-new", "s", 3], ["c3-old", "s", 3], ["c2", "s", 2]);
    assert.equal(firstCheckpointOfTurns(list, "s", 3)?.id, "c3-new");
  });
});

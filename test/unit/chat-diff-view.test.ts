import { strict as assert } from "node:assert";
import { diffView } from "../../extension/chat/diff-view.js";
import { computeHunks } from "../../extension/review/hunks.js";

describe("chat diff view: the review's hunks, with context", () => {
  it("shows each review hunk (the one its CodeLens keeps) with up to three old lines around it", () => {
    const oldText = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const newText = "a\nb\nX\nd\ne\nf\ng\nh\nY\n";
    const view = diffView("/w/f.txt", "f.txt", oldText, newText);
    assert.equal(view.hunks.length, computeHunks(oldText, newText).length, "card hunk i is review hunk i");
    assert.deepEqual(
      view.hunks.map((h) => h.header),
      ["@@ -1,6 +1,6 @@", "@@ -6,3 +6,4 @@"],
    );
    assert.deepEqual(
      view.hunks[0]!.lines.map((l) => `${l.type[0]}${l.text}`),
      ["ca", "cb", "rc", "aX", "cd", "ce", "cf"],
    );
    assert.deepEqual(
      view.hunks[1]!.lines.map((l) => `${l.type[0]}${l.text}`),
      ["cf", "cg", "ch", "aY"],
    );
    assert.deepEqual([view.change, view.added, view.removed], ["modify", 2, 1]);
  });

  it("numbers new and deleted files as unified diffs do", () => {
    assert.equal(diffView("/w/n", "n", null, "x\ny\n").hunks[0]!.header, "@@ -0,0 +1,2 @@");
    const gone = diffView("/w/o", "o", "x\ny\n", null);
    assert.deepEqual([gone.change, gone.hunks[0]!.header, gone.removed], ["delete", "@@ -1,2 +0,0 @@", 2]);
  });
});

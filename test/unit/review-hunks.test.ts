import { strict as assert } from "node:assert";
import { applyHunks, computeHunks, lineCounts } from "../../extension/review/hunks.js";

describe("review hunks", () => {
  const base = "a\nb\nc\nd\ne\nf\n";
  const proposed = "a\nB\nc\nd\ninserted\ne\n";

  it("splits a proposal into independent hunks with line counts", () => {
    const hunks = computeHunks(base, proposed);
    assert.equal(hunks.length, 3);
    assert.deepEqual(
      hunks.map((h) => [h.removed, h.added]),
      [
        [["b"], ["B"]],
        [[], ["inserted"]],
        [["f"], []],
      ],
    );
    assert.deepEqual(lineCounts(hunks), { added: 2, removed: 2 });
  });

  it("applies all, none, or any subset of the hunks", () => {
    const hunks = computeHunks(base, proposed);
    assert.equal(applyHunks(base, hunks, new Set([0, 1, 2])), proposed);
    assert.equal(applyHunks(base, hunks, new Set()), base);
    assert.equal(applyHunks(base, hunks, new Set([0])), "a\nB\nc\nd\ne\nf\n");
    assert.equal(applyHunks(base, hunks, new Set([1])), "a\nb\nc\nd\ninserted\ne\nf\n");
    assert.equal(applyHunks(base, hunks, new Set([2])), "a\nb\nc\nd\ne\n");
    assert.equal(applyHunks(base, hunks, new Set([0, 2])), "a\nB\nc\nd\ne\n");
  });

  it("handles new files, deletions of everything, and files without a final newline", () => {
    assert.equal(applyHunks("", computeHunks("", "x\ny\n"), new Set([0])), "x\ny\n");
    const all = computeHunks("x\ny\n", "");
    assert.equal(applyHunks("x\ny\n", all, new Set(all.map((h) => h.index))), "");
    const noEol = computeHunks("one\ntwo", "one\n2");
    assert.equal(applyHunks("one\ntwo", noEol, new Set(noEol.map((h) => h.index))), "one\n2");
  });

  it("inserts at the very top", () => {
    const hunks = computeHunks("b\n", "a\nb\n");
    assert.equal(applyHunks("b\n", hunks, new Set([0])), "a\nb\n");
  });
});

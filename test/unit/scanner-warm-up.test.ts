import { strict as assert } from "node:assert";
import { warmUpScannerInSlices } from "../../agent/security/scanner-warm-up.js";

describe("scanner warm-up: idle time only", () => {
  it("takes no step while a turn is in flight, and finishes once the server is idle again", async () => {
    let busy = true;
    let checks = 0;
    let finished = false;
    const warming = warmUpScannerInSlices({
      unicodeStartDelayMs: 0,
      unicodeStepGapMs: 0,
      busy: () => {
        checks++;
        return busy;
      },
    }).then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(finished, false, "no progress while busy");
    assert.ok(checks >= 2 && checks <= 10, `it rechecked now and then (${checks}), not in a tight loop`);
    busy = false;
    await warming;
    assert.ok(finished);
  });
});

import { strict as assert } from "node:assert";
import { analyseCommand } from "../../agent/tools/safety/command-risk.js";
import { SHELL_C } from "../helpers/command-risk-cases.js";

describe("analyseCommand", () => {
  it("scans inline payloads and marked command starts", () => {
    const analysis = analyseCommand("sudo bash -c 'echo hi; (reboot)'");
    assert.ok(analysis.variants.includes("echo hi; (reboot)"));
    assert.ok(analysis.variants.includes("echo hi; (\nreboot)"));
    assert.ok(analysis.variants.includes("sudo \nbash -c 'echo hi; (reboot)'"));
    assert.deepEqual(analysis.findings, [SHELL_C]);
    assert.equal(analysis.incomplete, false);
  });

  it("does not mark starts inside quotes or comments", () => {
    const analysis = analyseCommand("echo 'a; reboot' # ; halt");
    // The last variant is the words spelled out as the shell passes them: the comment is gone, the quote one word.
    assert.deepEqual(analysis.variants, ["echo 'a; reboot' # ; halt", "echo 'a; reboot'"]);
  });
});

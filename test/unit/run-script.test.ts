import { strict as assert } from "node:assert";
import { runDirProblem } from "../../agent/tools/code/run-script.js";

describe("execute_code's run folder", () => {
  const shallow = "/home/ada/.hermes";
  const deep = `/home/ada/${"projects/".repeat(10)}.hermes`;

  it("is reachable from a read-only sandbox when HERMES_HOME is short enough for a socket path", () => {
    assert.equal(runDirProblem(shallow, true), undefined);
  });

  it("refuses, saying why, when a deep HERMES_HOME would put it in a /tmp that read-only mode hides", () => {
    assert.match(String(runDirProblem(deep, true)), /too long for the socket .* Use a shorter HERMES_HOME/);
  });

  it("lets a deep HERMES_HOME fall back to the temp folder where commands share it", () => {
    assert.equal(runDirProblem(deep, false), undefined);
  });
});

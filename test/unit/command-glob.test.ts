import { strict as assert } from "node:assert";
import { isCompoundCommand, matchesCommandGlob } from "../../agent/tools/safety/command-risk.js";

describe("matchesCommandGlob", () => {
  it("matches exact text without wildcards", () => {
    assert.equal(matchesCommandGlob("npm test", "npm test"), true);
    assert.equal(matchesCommandGlob("npm test -- x", "npm test"), false);
    assert.equal(matchesCommandGlob("NPM TEST", "npm test"), false);
  });

  it("matches fnmatch globs case-insensitively", () => {
    assert.equal(matchesCommandGlob("npm run build", "npm run *"), true);
    assert.equal(matchesCommandGlob("NPM RUN build", "npm run *"), true);
    assert.equal(matchesCommandGlob("npm run", "npm run *"), false);
    assert.equal(matchesCommandGlob("git push origin/main", "git push *"), true);
    assert.equal(matchesCommandGlob("make a", "make ?"), true);
    assert.equal(matchesCommandGlob("make ab", "make ?"), false);
    assert.equal(matchesCommandGlob("test3", "test[0-9]"), true);
    assert.equal(matchesCommandGlob("testx", "test[!0-9]"), true);
    assert.equal(matchesCommandGlob("test3", "test[!0-9]"), false);
    assert.equal(matchesCommandGlob("a]", "a[]]"), true);
    assert.equal(matchesCommandGlob("a[b", "a[b"), true); // an unclosed set is a literal `[`
    assert.equal(matchesCommandGlob("a.b", "a?b*"), true);
    assert.equal(matchesCommandGlob("a(b)", "a(*)"), true); // regex characters are literal
    assert.equal(matchesCommandGlob("x\ny", "x*y"), true);
  });

  it("cannot backtrack exponentially", function () {
    this.timeout(5_000);
    assert.equal(matchesCommandGlob("a".repeat(5_000), "*a*a*a*a*a*a*a*a*a*a*b"), false);
    assert.equal(matchesCommandGlob(`${"ab".repeat(2_000)}c`, "*ab*ab*ab*c"), true);
  });
});

describe("isCompoundCommand", () => {
  it("uses upstream's separator test", () => {
    for (const command of [
      "a && b",
      "a || b",
      "a; b",
      "a & b",
      "a | b",
      "a > f",
      "a < f",
      "echo `x`",
      "echo $(x)",
      "a\nb",
    ]) {
      assert.equal(isCompoundCommand(command), true, command);
    }
    for (const command of ["npm test", "git commit -m fix", "echo $HOME", "ls -la ./src"]) {
      assert.equal(isCompoundCommand(command), false, command);
    }
  });
});

import { strict as assert } from "node:assert";
import { normaliseCommand, stripAnsi } from "../../agent/tools/safety/command-normalise.js";
import { HOME, OPTIONS } from "../helpers/command-risk-cases.js";

describe("command normalisation", () => {
  it("strips ECMA-48 escapes as upstream's strip_ansi does", () => {
    assert.equal(stripAnsi("\x1b[1;31mred\x1b[0m"), "red");
    assert.equal(stripAnsi("a\x1b]0;title\x07b"), "ab");
    assert.equal(stripAnsi("a\x1b]8;;http://x\x1b\\b"), "ab");
    assert.equal(stripAnsi("a\x1bPdata\x1b\\b"), "ab");
    assert.equal(stripAnsi("a\x1b(Bb"), "ab");
    assert.equal(stripAnsi("a\x1b=b"), "ab");
    assert.equal(stripAnsi("a\x9b2Jb\x85c"), "abc");
    assert.equal(stripAnsi("a\x1b]unterminated"), "aunterminated");
    assert.equal(stripAnsi("plain"), "plain");
  });

  it("undoes splicing tricks and lower-cases everything but flags", () => {
    assert.equal(normaliseCommand("R\\M -RF ${IFS}/"), "rm -RF  /");
    assert.equal(normaliseCommand("r''m$IFS-rf"), "rm -rf");
    assert.equal(normaliseCommand("ｓｕｄｏ  -S"), "sudo  -S");
    assert.equal(normaliseCommand("Git Branch -D X"), "git branch -D x");
  });

  it("folds the homes it is given, and only whole path prefixes", () => {
    assert.equal(normaliseCommand("cat /home/alice/.ssh/id_rsa", { home: HOME }), "cat ~/.ssh/id_rsa");
    assert.equal(normaliseCommand("cat /home/alice/.hermes/.env", OPTIONS), "cat ~/.hermes/.env");
    assert.equal(normaliseCommand("cat /data/home/alice/x", { home: HOME }), "cat /data/home/alice/x");
    assert.equal(normaliseCommand("cat /home/alice", { home: HOME }), "cat /home/alice");
    assert.equal(normaliseCommand("cat /etc/x", { home: "/" }), "cat /etc/x");
  });
});

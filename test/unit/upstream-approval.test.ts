/**
 * Upstream's approval and hardline suites ported as data (NousResearch/hermes-agent `tests/tools/test_approval.py`
 * and `tests/tools/test_hardline_blocklist.py`, as of the index used for issue 17): each command with the verdict
 * upstream asserts. Only the cases are ported (command → verdict); the tests of upstream's plumbing (gateway
 * queues, prompt_toolkit, i18n, hooks) have no counterpart here. Where we decide otherwise on purpose the case is in
 * DELIBERATE_DIFFERENCES with the reason, and our verdict is what is asserted.
 */
import { strict as assert } from "node:assert";
import { type AssessOptions, assessCommand, type CommandRisk } from "../../agent/tools/safety/command-risk.js";
import { APPROVAL_SUITE, WINDOWS_HOME_SUITE } from "./upstream-approval-cases/approval.js";
import { DELIBERATE_DIFFERENCES } from "./upstream-approval-cases/deliberate-differences.js";
import { HARDLINE_SUITE } from "./upstream-approval-cases/hardline-blocklist.js";
import { OPTIONS, type Verdict } from "./upstream-approval-cases/verdict.js";

function check(command: string, verdict: Verdict, risk: CommandRisk): string | undefined {
  const description = "description" in risk ? risk.description : "";
  const [kind, text] = verdict.includes(":")
    ? [verdict.slice(0, verdict.indexOf(":")), verdict.slice(verdict.indexOf(":") + 1)]
    : [verdict, ""];
  const ok =
    kind === "hardline"
      ? risk.level === "hardline"
      : kind === "not-hardline"
        ? risk.level !== "hardline"
        : kind === "safe"
          ? risk.level === "safe"
          : risk.level !== "safe";
  if (ok && (!text || description.toLowerCase().includes(text.toLowerCase()))) return undefined;
  return `${JSON.stringify(command)}: expected ${verdict}, got ${risk.level}${description ? ` (${description})` : ""}`;
}

function runSuite(suite: ReadonlyArray<readonly [string, Verdict]>, options: AssessOptions): string[] {
  const differing = new Set(DELIBERATE_DIFFERENCES.map(([command]) => command));
  return suite
    .filter(([command]) => !differing.has(command))
    .flatMap(([command, verdict]) => check(command, verdict, assessCommand(command, options)) ?? []);
}

describe("upstream's approval and hardline suites, ported as data", () => {
  it("test_hardline_blocklist.py: every verdict", () => {
    assert.deepEqual(runSuite(HARDLINE_SUITE, OPTIONS), []);
  });

  it("test_approval.py: every verdict", () => {
    assert.deepEqual(runSuite(APPROVAL_SUITE, OPTIONS), []);
  });

  it("test_approval.py: a Windows home folds like a POSIX one", () => {
    assert.deepEqual(runSuite(WINDOWS_HOME_SUITE, { home: "C:\\Users\\tester" }), []);
  });

  it("approval keys: find -exec rm and find -delete are different keys (approving one does not approve the other)", () => {
    const exec = assessCommand("find . -exec rm {} \\;", OPTIONS);
    const del = assessCommand("find . -name '*.tmp' -delete", OPTIONS);
    assert.ok("description" in exec && "description" in del);
    assert.notEqual(exec.description, del.description);
  });

  it("deliberate differences from upstream: ours hold, each with its reason", () => {
    const failures = DELIBERATE_DIFFERENCES.flatMap(([command, upstream, ours, why, options]) => {
      assert.notEqual(upstream, ours);
      assert.ok(why.length > 40, "each difference says why");
      return check(command, ours, assessCommand(command, options ?? OPTIONS)) ?? [];
    });
    assert.deepEqual(failures, []);
  });

  it("ports about 420 verdicts", () => {
    const total =
      HARDLINE_SUITE.length + APPROVAL_SUITE.length + WINDOWS_HOME_SUITE.length + DELIBERATE_DIFFERENCES.length;
    assert.ok(total >= 400, `${total} verdicts`);
  });
});

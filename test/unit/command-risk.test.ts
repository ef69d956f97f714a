import { strict as assert } from "node:assert";
import { DANGEROUS_PATTERNS, HARDLINE_PATTERNS } from "../../agent/tools/safety/command-patterns.js";
import {
  assessCommand,
  denyRuleMessage,
  hardlineMessage,
  SUDO_STDIN_MESSAGE,
  USER_DENIED_MESSAGE,
} from "../../agent/tools/safety/command-risk.js";
import {
  CASES,
  danger,
  FORCE_DELETE,
  HOME,
  hard,
  OPTIONS,
  SAFE,
  SUDO_S,
  USER_RC,
} from "../helpers/command-risk-cases.js";

describe("assessCommand", () => {
  it("has upstream's table sizes", () => {
    assert.equal(HARDLINE_PATTERNS.length, 12);
    assert.equal(DANGEROUS_PATTERNS.length, 70);
    assert.ok(CASES.length >= 90);
  });

  for (const [command, expected] of CASES) {
    it(`${JSON.stringify(command)} → ${expected.level}${"description" in expected ? `: ${expected.description}` : ""}`, () => {
      assert.deepEqual(assessCommand(command, OPTIONS), expected);
    });
  }

  it("does not read git branch -d as a force delete (upstream gap 2)", () => {
    assert.deepEqual(assessCommand("git branch -d merged"), SAFE);
    assert.deepEqual(assessCommand("GIT BRANCH -d merged"), SAFE);
    assert.deepEqual(assessCommand("git branch -D merged"), danger(FORCE_DELETE));
    assert.deepEqual(assessCommand("GIT BRANCH -D merged"), danger(FORCE_DELETE));
    assert.deepEqual(assessCommand("ls && git branch -D a b"), danger(FORCE_DELETE));
  });

  it("turns the sudo -S guard off when SUDO_PASSWORD is configured", () => {
    assert.deepEqual(
      assessCommand("sudo -S ls", { sudoPasswordSet: true }),
      danger("sudo with privilege flag (stdin/askpass/shell/list)"),
    );
    assert.deepEqual(assessCommand("bash -c 'sudo -S ls'"), hard(SUDO_S));
  });

  it("folds only the homes it is given", () => {
    assert.deepEqual(assessCommand("sed -i s/a/b/ /home/alice/.bashrc"), SAFE);
    assert.deepEqual(assessCommand("sed -i s/a/b/ /home/alice/.bashrc", { home: HOME }), danger(USER_RC));
    assert.deepEqual(
      assessCommand("echo x > /opt/hermes/.env"),
      danger("overwrite project env/config via redirection"),
    );
    assert.deepEqual(
      assessCommand("echo x > /opt/hermes/.env", { hermesHome: "/opt/hermes" }),
      danger("overwrite system file via redirection"),
    );
    assert.deepEqual(
      assessCommand("sed -i s/a/b/ C:\\Users\\alice\\.bashrc", { home: "C:\\Users\\alice" }),
      danger(USER_RC),
    );
  });

  it("treats parser limits as hardline", () => {
    const limit = hard("command parser limit exceeded");
    assert.deepEqual(assessCommand(`echo ${"a".repeat(128_001)}`), limit);
    assert.deepEqual(assessCommand(`echo ${"a".repeat(4_097)}`), limit);
    assert.deepEqual(assessCommand(`echo ${"a".repeat(4_097)}; ls`).level, "safe");
    assert.deepEqual(assessCommand("true;".repeat(25_000)), limit);
    // Nested inline payloads beyond the unwrapping depth fail closed too.
    let nested = "reboot";
    for (let i = 0; i < 8; i++) nested = `bash -c ${JSON.stringify(nested)}`;
    assert.deepEqual(assessCommand(nested), limit);
  });
});

describe("upstream messages", () => {
  it("match upstream's text", () => {
    assert.equal(
      hardlineMessage("fork bomb"),
      "BLOCKED (hardline): fork bomb. This command is on the unconditional blocklist and cannot be executed via the " +
        "agent — not even with --yolo, /yolo, approvals.mode=off, or cron approve mode. If you genuinely need to run " +
        "it, run it yourself in a terminal outside the agent.",
    );
    assert.equal(
      SUDO_STDIN_MESSAGE,
      "BLOCKED: sudo password guessing via stdin (sudo -S). Do not pipe passwords to 'sudo -S' — this is a " +
        "brute-force attack vector. Set SUDO_PASSWORD in your .env file if the agent needs passwordless sudo, or run " +
        "the sudo command manually in your own terminal.",
    );
    assert.equal(
      denyRuleMessage("rm *"),
      "BLOCKED: this command matches the user-defined deny rule 'rm *' (approvals.deny in config.yaml). It cannot be " +
        "executed via the agent — not even with --yolo, /yolo, or approvals.mode=off. Do NOT retry or rephrase this " +
        "command; the user has explicitly forbidden it.",
    );
    assert.ok(USER_DENIED_MESSAGE.startsWith("BLOCKED: User denied this command. The user has NOT consented"));
    assert.ok(USER_DENIED_MESSAGE.endsWith("before taking any further destructive or irreversible action."));
  });
});

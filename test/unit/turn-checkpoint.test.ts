import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CHECKPOINT_SETTINGS, readCheckpointSettings } from "../../agent/config/checkpoint-settings.js";
import { ConfigError } from "../../agent/config/config-error.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { TurnCheckpoint } from "../../agent/tools/turn-checkpoint.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";

const yaml = (text: string) => parseYamlText("/home/u/.hermes/config.yaml", text);

describe("checkpoints: in config.yaml", () => {
  it("is on by default for editor sessions, with upstream's max_snapshots", () => {
    assert.deepEqual(readCheckpointSettings(yaml("")), { enabled: true, maxSnapshots: 20 });
    assert.deepEqual(readCheckpointSettings(yaml("checkpoints:\n  enabled: false\n")), {
      enabled: false,
      maxSnapshots: 20,
    });
    assert.deepEqual(readCheckpointSettings(yaml("checkpoints:\n  max_snapshots: 5\n")), {
      enabled: true,
      maxSnapshots: 5,
    });
    assert.equal(readCheckpointSettings(yaml("checkpoints: false\n")).enabled, false);
  });

  it("refuses wrong values with a ConfigError on their line", () => {
    for (const [text, line] of [
      ["checkpoints:\n  enabled: maybe\n", 2],
      ["checkpoints:\n  max_snapshots: 0\n", 2],
      ["checkpoints:\n  max_snapshots: 2.5\n", 2],
      ["checkpoints: [1]\n", 1],
    ] as const) {
      assert.throws(
        () => readCheckpointSettings(yaml(text)),
        (error: unknown) => error instanceof ConfigError && error.problem.line === line,
        text,
      );
    }
  });
});

describe("TurnCheckpoint: one snapshot per turn, before its first change", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function setup(settings = DEFAULT_CHECKPOINT_SETTINGS) {
    const home = temp.make("hermes-tc-home-");
    const work = temp.make("hermes-tc-work-");
    writeTree(work, { "a.txt": "alpha\n" });
    const notices: string[] = [];
    const logged: string[] = [];
    const checkpoint = new TurnCheckpoint({
      settings,
      workingDir: work,
      hermesHome: home,
      sessionId: "s1",
      log: (m) => logged.push(m),
    });
    const startTurn = (turn: number) => checkpoint.startTurn(turn, (title) => notices.push(title));
    return { work, checkpoint, notices, logged, startTurn };
  }

  it("snapshots once however many changes the turn makes, and again in the next turn", async () => {
    const { work, checkpoint, startTurn } = setup();
    startTurn(1);
    assert.equal(checkpoint.turnCheckpointId, undefined, "nothing before the first change");
    await Promise.all([checkpoint.beforeChange("before write_file"), checkpoint.beforeChange("before patch")]);
    writeFileSync(join(work, "a.txt"), "changed\n");
    await checkpoint.beforeChange("before terminal: ls");
    const first = checkpoint.turnCheckpointId;
    assert.ok(first);
    const entries = await (await checkpoint.checkpoints()).list();
    assert.deepEqual(
      entries.map((e) => [e.reason, e.turn, e.sessionId]),
      [["before write_file", 1, "s1"]],
    );
    startTurn(2);
    await checkpoint.beforeChange("before patch");
    assert.notEqual(checkpoint.turnCheckpointId, first);
    assert.equal((await (await checkpoint.checkpoints()).list()).length, 2);
  });

  it("takes nothing when checkpoints are off", async () => {
    const { checkpoint, startTurn } = setup({ enabled: false, maxSnapshots: 20 });
    startTurn(1);
    await checkpoint.beforeChange("before write_file");
    assert.equal(checkpoint.turnCheckpointId, undefined);
    assert.deepEqual(await (await checkpoint.checkpoints()).list(), []);
  });

  it("never throws when git is missing: logs each time, tells the user once per session", async () => {
    const { checkpoint, notices, logged, startTurn } = setup();
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent-hermes-path";
    try {
      startTurn(1);
      await checkpoint.beforeChange("before write_file");
      startTurn(2);
      await checkpoint.beforeChange("before write_file");
    } finally {
      process.env.PATH = path;
    }
    assert.deepEqual(notices, ["Checkpoints unavailable: git not found"]);
    assert.equal(logged.length, 2);
    assert.equal(checkpoint.turnCheckpointId, undefined);
  });
});

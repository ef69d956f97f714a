import { strict as assert } from "node:assert";
import { readVisionSettings } from "../../agent/config/vision-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";

const read = (yaml: string, env: Record<string, string> = {}) =>
  readVisionSettings(parseYamlText("/h/config.yaml", yaml), env);

/** The fields that are set: an absent key and an undefined one read the same to every caller. */
const definedOnly = (value: object) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe("auxiliary.vision settings", () => {
  it("defaults to no side model, 120 s, temperature 0.1 and a 30 s download", () => {
    const { endpoint, ...rest } = read("");
    assert.deepEqual(definedOnly(endpoint), {});
    assert.deepEqual(rest, { timeoutMs: 120_000, temperature: 0.1, downloadTimeoutMs: 30_000 });
  });

  it("reads upstream's keys; provider auto/main mean the session's route", () => {
    const settings = read(
      "auxiliary:\n  vision:\n    provider: main\n    model: eye-1\n    timeout: 45\n    temperature: 0\n    download_timeout: 5\n",
    );
    assert.deepEqual(definedOnly(settings.endpoint), { model: "eye-1" });
    assert.equal(settings.timeoutMs, 45_000);
    assert.equal(settings.temperature, 0);
    assert.equal(settings.downloadTimeoutMs, 5_000);
  });

  it("takes AUXILIARY_VISION_MODEL and HERMES_VISION_DOWNLOAD_TIMEOUT from the environment, skipping a bad value", () => {
    assert.equal(read("", { AUXILIARY_VISION_MODEL: "env-eye" }).endpoint.model, "env-eye");
    assert.equal(
      read("auxiliary:\n  vision:\n    model: yaml-eye\n", { AUXILIARY_VISION_MODEL: "env-eye" }).endpoint.model,
      "yaml-eye",
    );
    assert.equal(read("", { HERMES_VISION_DOWNLOAD_TIMEOUT: "7" }).downloadTimeoutMs, 7_000);
    assert.equal(read("", { HERMES_VISION_DOWNLOAD_TIMEOUT: "soon" }).downloadTimeoutMs, 30_000);
  });

  it("points at the line of a wrong value", () => {
    assert.throws(
      () => read("auxiliary:\n  vision:\n    temperature: warm\n"),
      /auxiliary\.vision\.temperature must be a number/,
    );
    assert.throws(() => read("auxiliary:\n  vision: yes\n"), /`auxiliary\.vision` must be a mapping/);
  });
});

import { strict as assert } from "node:assert";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../agent/config/config-error.js";
import { loadHermesConfig } from "../../agent/config/load-config.js";
import { writeModelChoice } from "../../agent/config/model-choice-writer.js";
import { TempDirs } from "../helpers/temp-dirs.js";

describe("model-choice-writer: the `model:` section --setup writes", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  const choice = { provider: "custom", model: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" };

  it("creates config.yaml with exactly the keys the loader reads", () => {
    const home = temp.make();
    writeModelChoice(join(home, "config.yaml"), { ...choice, dropApiMode: false, dropApiKey: false });
    const config = loadHermesConfig({ HERMES_HOME: home });
    assert.deepEqual(
      { provider: config.model.provider, model: config.model.model, baseUrl: config.model.baseUrl },
      { provider: "custom", model: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" },
    );
  });

  it("keeps comments and other sections; removes base_url, api_mode, api_key and `model.model` when told", () => {
    const file = join(temp.make(), "config.yaml");
    writeFileSync(
      file,
      "# top\nmodel:\n  provider: anthropic # mine\n  model: old\n  base_url: http://x/v1\n  api_mode: anthropic_messages\n  api_key: sk-a\n  max_retries: 2\nagent:\n  reasoning_effort: high # hmm\n",
    );
    const removed = writeModelChoice(file, {
      provider: "openrouter",
      model: "a/b",
      dropApiMode: true,
      dropApiKey: true,
    });
    assert.deepEqual(removed, ["model.model", "model.base_url", "model.api_mode", "model.api_key"]);
    assert.equal(
      readFileSync(file, "utf8"),
      "# top\nmodel:\n  provider: openrouter # mine\n  max_retries: 2\n  default: a/b\nagent:\n  reasoning_effort: high # hmm\n",
    );
  });

  it("replaces upstream's shorthand `model: name` with a mapping", () => {
    const file = join(temp.make(), "config.yaml");
    writeFileSync(file, "model: gpt-4o\nother: 1\n");
    writeModelChoice(file, { provider: "openai", model: "gpt-5", dropApiMode: false, dropApiKey: false });
    assert.equal(readFileSync(file, "utf8"), "model:\n  provider: openai\n  default: gpt-5\nother: 1\n");
  });

  it("keeps the file's mode (a 0600 config that holds keys stays 0600)", () => {
    const file = join(temp.make(), "config.yaml");
    writeFileSync(file, "model:\n  api_key: sk-secret-in-config\n");
    chmodSync(file, 0o600);
    writeModelChoice(file, { provider: "openai", model: "gpt-5", dropApiMode: false, dropApiKey: false });
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it("refuses a file that does not parse, with its line, and leaves it as it was", () => {
    const file = join(temp.make(), "config.yaml");
    writeFileSync(file, "model:\n\tprovider: x\n");
    assert.throws(
      () => writeModelChoice(file, { provider: "openai", model: "m", dropApiMode: false, dropApiKey: false }),
      (error: unknown) => error instanceof ConfigError && error.problem.line === 2,
    );
    assert.equal(readFileSync(file, "utf8"), "model:\n\tprovider: x\n");
    assert.ok(!existsSync(`${file}.tmp-${process.pid}`));
  });
});

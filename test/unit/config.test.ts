import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../agent/config/config-error.js";
import { loadHermesConfig } from "../../agent/config/load-config.js";
import { readModelSettings } from "../../agent/config/model-settings.js";
import { resolveRuntimeProvider } from "../../agent/config/runtime-provider.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { TempDirs } from "../helpers/temp-dirs.js";

const settingsOf = (text: string) => readModelSettings(parseYamlText("/h/config.yaml", text));

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  assert.fail("expected a ConfigError");
}

describe("config.yaml", () => {
  it("reads the model section with upstream's keys and aliases", () => {
    assert.deepEqual(
      settingsOf(
        "model:\n  provider: openrouter\n  default: a/b\n  base_url: http://x:1/v1\n  api_mode: chat_completions\n",
      ),
      {
        provider: "openrouter",
        model: "a/b",
        baseUrl: "http://x:1/v1",
        apiMode: "chat_completions",
        apiKey: undefined,
        contextLength: undefined,
        maxRetries: undefined,
      },
    );
    assert.equal(settingsOf("model:\n  model: m2\n").model, "m2", "`model` is an alias of `default`");
    assert.equal(settingsOf("model: just-a-name\n").model, "just-a-name", "a bare string names the model");
    assert.deepEqual(settingsOf(""), {}, "an empty file is an empty config");
    assert.deepEqual(settingsOf("# only a comment\n"), {});
  });

  it("names file, line and column of syntax errors", () => {
    const error = configErrorOf(() => parseYamlText("/h/config.yaml", "a: 1\nb: [1, 2\n"));
    assert.equal(error.problem.file, "/h/config.yaml");
    assert.equal(typeof error.problem.line, "number");
    assert.match(error.message, /^\/h\/config\.yaml:\d+:\d+: /);
    const dup = configErrorOf(() => parseYamlText("/h/config.yaml", "model:\n  default: x\n  default: y\n"));
    assert.equal(dup.problem.line, 3);
  });

  it("rejects a root that is not a mapping", () => {
    const error = configErrorOf(() => parseYamlText("/h/config.yaml", "- a\n- b\n"));
    assert.match(error.message, /top level must be a mapping/);
    assert.equal(error.problem.line, 1);
  });

  it("points at the line of a wrong value", () => {
    assert.equal(configErrorOf(() => settingsOf("model:\n  provider: nope\n")).problem.line, 2);
    assert.match(
      configErrorOf(() => settingsOf("model:\n  api_mode: grpc\n")).message,
      /:2:13: api_mode must be one of chat_completions, codex_responses, anthropic_messages/,
    );
    assert.match(
      configErrorOf(() => settingsOf("model:\n\n  base_url: localhost:1234\n")).message,
      /:3:13: base_url must be an http\(s\) URL/,
    );
    assert.match(configErrorOf(() => settingsOf("model:\n  default: 42\n")).message, /model\.default must be a string/);
    assert.match(configErrorOf(() => settingsOf("model: [1]\n")).message, /`model` must be a mapping/);
  });
});

describe("provider resolution", () => {
  const env = {};
  it("maps a provider name to base URL, API mode and key variable", () => {
    const r = resolveRuntimeProvider(
      { provider: "openrouter", model: "m" },
      { OPENROUTER_API_KEY: "k" },
      "/h/config.yaml",
    );
    assert.ok(r.ok);
    assert.equal(r.runtime.baseUrl, "https://openrouter.ai/api/v1");
    assert.equal(r.runtime.apiMode, "chat_completions");
    assert.equal(r.runtime.keySource, "OPENROUTER_API_KEY");
    const a = resolveRuntimeProvider({ provider: "claude", model: "m" }, { ANTHROPIC_API_KEY: "k" }, "/h/config.yaml");
    assert.ok(a.ok && a.runtime.apiMode === "anthropic_messages" && a.runtime.providerId === "anthropic");
  });

  it("takes any variable of a provider that has several", () => {
    const r = resolveRuntimeProvider({ provider: "gemini", model: "m" }, { GEMINI_API_KEY: "k" }, "/h/config.yaml");
    assert.ok(r.ok && r.runtime.keySource === "GEMINI_API_KEY");
  });

  it("lets model.api_key beat the environment and explicit base_url/api_mode beat the provider's", () => {
    const r = resolveRuntimeProvider(
      { provider: "openai", model: "m", apiKey: "cfg", baseUrl: "http://proxy/v1", apiMode: "codex_responses" },
      { OPENAI_API_KEY: "env" },
      "/h/config.yaml",
    );
    assert.ok(r.ok);
    assert.equal(r.runtime.apiKey, "cfg");
    assert.equal(r.runtime.keySource, "config.yaml model.api_key");
    assert.equal(r.runtime.baseUrl, "http://proxy/v1");
    assert.equal(r.runtime.apiMode, "codex_responses");
  });

  it("treats a base_url without a provider as a custom endpoint that needs no key", () => {
    const r = resolveRuntimeProvider({ model: "llama3", baseUrl: "http://127.0.0.1:11434/v1" }, env, "/h/config.yaml");
    assert.ok(r.ok);
    assert.equal(r.runtime.providerId, "custom");
    assert.equal(r.runtime.apiKey, undefined);
  });

  it("explains what is missing", () => {
    const noModel = resolveRuntimeProvider({ provider: "openrouter" }, env, "/h/config.yaml");
    assert.ok(!noModel.ok && /No model configured: set model.default in \/h\/config.yaml/.test(noModel.problem));
    const noKey = resolveRuntimeProvider({ provider: "xai", model: "grok" }, env, "/h/config.yaml");
    assert.ok(!noKey.ok && noKey.problem.includes("set XAI_API_KEY in the environment or in /h/.env"));
    const noUrl = resolveRuntimeProvider({ provider: "custom", model: "m" }, env, "/h/config.yaml");
    assert.ok(!noUrl.ok && /needs model.base_url/.test(noUrl.problem));
  });
});

describe("loading HERMES_HOME", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("applies HERMES_HOME/.env under the process environment", () => {
    const home = temp.make();
    writeFileSync(join(home, ".env"), "A_KEY=from-dotenv\nB_KEY=dotenv-b\n# comment\n");
    const config = loadHermesConfig({ HERMES_HOME: home, B_KEY: "process-b" });
    assert.equal(config.env.A_KEY, "from-dotenv");
    assert.equal(config.env.B_KEY, "process-b");
    assert.equal(config.configPath, join(home, "config.yaml"));
  });

  it("works with no config.yaml and no .env at all", () => {
    const home = temp.make();
    const config = loadHermesConfig({ HERMES_HOME: home });
    assert.deepEqual(config.model, {});
  });
});

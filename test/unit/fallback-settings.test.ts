import { strict as assert } from "node:assert";
import { readFallbackSettings, resolveFallbackProviders } from "../../agent/config/fallback-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";

describe("fallback_providers in config.yaml", () => {
  const read = (text: string) => readFallbackSettings(parseYamlText("/h/config.yaml", text));

  it("reads upstream's list (and the older fallback_model)", () => {
    const entries = read(
      "model:\n  default: x\nfallback_providers:\n  - provider: openrouter\n    model: anthropic/claude-sonnet-4\n  - provider: anthropic\n    default: claude-sonnet-4\n    api_key: k\n",
    );
    assert.deepEqual(
      entries.map((e) => [e.where, e.settings.provider, e.settings.model, e.settings.apiKey]),
      [
        ["fallback_providers[0]", "openrouter", "anthropic/claude-sonnet-4", undefined],
        ["fallback_providers[1]", "anthropic", "claude-sonnet-4", "k"],
      ],
    );
    assert.deepEqual(
      read("fallback_model:\n  provider: nous\n  model: hermes-4\n").map((e) => e.where),
      ["fallback_model"],
    );
    assert.deepEqual(read("model: x\n"), []);
  });

  it("points at the offending line", () => {
    assert.throws(
      () => read("fallback_providers:\n  - provider: openrouter\n    model: a\n  - provider: nope\n    model: b\n"),
      /config\.yaml:4:\d+: unknown provider 'nope'/,
    );
    assert.throws(
      () => read("fallback_providers:\n  - provider: openrouter\n"),
      /config\.yaml:2:\d+: fallback_providers\[0\] needs a model/,
    );
    assert.throws(
      () => read("fallback_providers: openrouter\n"),
      /config\.yaml:1:\d+: `fallback_providers` must be a list/,
    );
    assert.throws(
      () => read("fallback_providers:\n  - provider: openai\n    model: m\n    api_mode: soap\n"),
      /config\.yaml:4:\d+: api_mode must be one of/,
    );
  });

  it("resolves each entry, skipping with a reason the ones without a key", () => {
    const entries = read(
      "fallback_providers:\n  - provider: openrouter\n    model: a\n  - provider: anthropic\n    model: claude\n  - provider: openai\n    model: gpt\n",
    );
    const { runtimes, skipped } = resolveFallbackProviders(
      entries,
      { OPENROUTER_API_KEY: "or", OPENAI_API_KEY: "oa" },
      "/h/config.yaml",
    );
    assert.deepEqual(
      runtimes.map((r) => [r.providerId, r.model, r.apiMode, r.keySource]),
      [
        ["openrouter", "a", "chat_completions", "OPENROUTER_API_KEY"],
        ["openai", "gpt", "chat_completions", "OPENAI_API_KEY"],
      ],
    );
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0]!.where, "fallback_providers[1]");
    assert.match(skipped[0]!.reason, /ANTHROPIC_API_KEY/);
    const primary = runtimes[0]!;
    assert.deepEqual(
      resolveFallbackProviders(entries, { OPENROUTER_API_KEY: "or" }, "/h/config.yaml", primary).runtimes,
      [],
    );
  });
});

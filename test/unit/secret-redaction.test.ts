import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createStderrLogger } from "../../acp-server/rpc/log.js";
import { eventToUpdate } from "../../acp-server/updates/event-to-update.js";
import { loadHermesConfig } from "../../agent/config/load-config.js";
import { forgetSecretsForTests, rememberSecret, rememberSecretsOfTree } from "../../agent/config/secret-values.js";
import { redactKnownSecrets, redactSecrets } from "../../agent/security/secret-redaction.js";
import { TempDirs, writeTree } from "../helpers/temp-dirs.js";

/** A fake key body of `n` characters from `alphabet` (built at run time: no key-shaped literal sits in the source). */
function body(n: number, alphabet = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[(i * 7 + 3) % alphabet.length];
  return out;
}

const HEX = "0123456789abcdef";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** [provider, key, the prefix kept in front of the mask]. */
const KEYS: ReadonlyArray<readonly [string, string, string]> = [
  ["OpenAI", `sk-${body(48)}`, "sk-"],
  ["OpenAI project", `sk-proj-${body(40)}_${body(20)}`, "sk-proj-"],
  ["Anthropic", `sk-ant-api03-${body(80)}-${body(6)}AA`, "sk-ant-api03-"],
  ["OpenRouter", `sk-or-v1-${body(64, HEX)}`, "sk-or-v1-"],
  ["Google", `AIza${body(35)}`, "AIza"],
  ["xAI", `xai-${body(80)}`, "xai-"],
  ["Groq", `gsk_${body(52)}`, "gsk_"],
  ["HuggingFace", `hf_${body(34)}`, "hf_"],
  ["GitHub personal", `ghp_${body(36)}`, "ghp_"],
  ["GitHub OAuth", `gho_${body(36)}`, "gho_"],
  ["GitHub server", `ghs_${body(36)}`, "ghs_"],
  ["GitHub user", `ghu_${body(36)}`, "ghu_"],
  ["GitHub fine-grained", `github_pat_${body(22)}_${body(59)}`, "github_pat_"],
  ["AWS access key id", `AKIA${body(16, UPPER)}`, "AKIA"],
  ["Slack bot", `xoxb-${body(12, "0123456789")}-${body(13, "0123456789")}-${body(24)}`, "xoxb-"],
  ["Slack user", `xoxp-${body(12, "0123456789")}-${body(24)}`, "xoxp-"],
];

describe("secret redaction (logs, errors to the client, the extension's log channel)", () => {
  const temp = new TempDirs();
  afterEach(() => {
    forgetSecretsForTests();
    temp.cleanup();
  });

  for (const [provider, key, prefix] of KEYS) {
    it(`masks a ${provider} key, keeping only its vendor prefix`, () => {
      const secretPart = key.slice(prefix.length);
      for (const text of [`401: invalid key ${key}.`, `{"api_key":"${key}"}`, `key=${key}\n`]) {
        const out = redactSecrets(text);
        assert.ok(!out.includes(secretPart), `${provider}: ${out}`);
        assert.ok(out.includes(`${prefix}…[redacted]`), `${provider}: ${out}`);
      }
    });
  }

  it("masks Bearer tokens, key headers and credentials in URLs", () => {
    const token = body(40);
    const cases = [
      `Authorization: Bearer ${token}`,
      `headers: {"authorization": "bearer ${token}"}`,
      `x-api-key: ${token}`,
      `"x-goog-api-key": "${token}"`,
      `GET https://api.example.com/v1/models?api_key=${token}&limit=5`,
      `fetch failed: https://example.com/feed?token=${token}`,
      `https://example.com/cb?a=1&access_token=${token}#frag`,
      `https://generativelanguage.googleapis.com/v1beta/models?key=${token}`,
    ];
    for (const text of cases) {
      const out = redactSecrets(text);
      assert.ok(!out.includes(token), out);
      assert.match(out, /…\[redacted\]/);
    }
    assert.equal(
      redactSecrets(`GET /v1/models?api_key=${token}&limit=5`),
      "GET /v1/models?api_key=…[redacted]&limit=5",
    );
  });

  it("leaves ordinary text alone", () => {
    const text =
      "Tokens used: 1200 (max_tokens 4096). See https://example.com/docs?page=2&sort=asc; task-list, sk-8 and hf_x are not keys.";
    assert.equal(redactSecrets(text), text);
  });

  it("masks the literal values of keys from config.yaml, HERMES_HOME/.env and the environment, whatever their shape", () => {
    const home = temp.make();
    const configured = `plain${body(24)}`;
    const fromDotenv = `dotenv-${body(20)}`;
    const fromEnv = `env-${body(20)}`;
    const mcpHeader = `hdr${body(30)}`;
    writeTree(home, {
      "config.yaml": `model:\n  provider: custom\n  default: m\n  base_url: http://127.0.0.1:1/v1\n  api_key: ${configured}\nfallback_providers:\n  - provider: custom\n    model: other\n    api_key: ${configured}x\n`,
      ".env": `MY_PROXY_TOKEN=${fromDotenv}\nHARMLESS=${body(20)}\n`,
    });
    loadHermesConfig({ HERMES_HOME: home, CUSTOM_ENDPOINT_API_KEY: fromEnv });
    rememberSecretsOfTree({ headers: { Authorization: `Bearer ${mcpHeader}` } });

    const message = `provider said: bad key '${configured}' (also ${configured}x), proxy ${fromDotenv}, env ${fromEnv}, hdr ${mcpHeader}`;
    const out = redactSecrets(message);
    for (const secret of [configured, fromDotenv, fromEnv, mcpHeader]) assert.ok(!out.includes(secret), out);
    assert.match(out, /\[redacted model\.api_key\]/);
    assert.match(out, /\[redacted fallback_providers\[0\]\.api_key\]/);
    assert.match(out, /\[redacted MY_PROXY_TOKEN\]/);
    assert.match(out, /\[redacted CUSTOM_ENDPOINT_API_KEY\]/);
    // A variable whose name says nothing about secrets is not one.
    assert.ok(redactSecrets(body(20)).includes(body(20)));

    // Every way out: the stderr log, an error event and a notice as the client receives them.
    const lines: string[] = [];
    createStderrLogger(false, (l) => lines.push(l)).error(message);
    assert.ok(!lines.join("").includes(configured) && lines.join("").includes("[redacted model.api_key]"));
    const error = eventToUpdate({ type: "error", message }, "/");
    const notice = eventToUpdate({ type: "notice", title: "MCP server failed", message }, "/");
    for (const update of [error, notice]) {
      const text = JSON.stringify(update);
      assert.ok(!text.includes(configured) && !text.includes(fromEnv), text);
    }
  });

  it("reads the process environment's keys on first use", () => {
    const value = `procenv-${body(24)}`;
    process.env.HERMES_TEST_SERVICE_TOKEN = value;
    try {
      forgetSecretsForTests();
      assert.equal(redactSecrets(`echo ${value}`), "echo [redacted HERMES_TEST_SERVICE_TOKEN]");
    } finally {
      delete process.env.HERMES_TEST_SERVICE_TOKEN;
    }
  });

  it("redactKnownSecrets (run on every tool result) masks held values but not key shapes, which files may hold as test data", () => {
    const held = `held-${body(20)}`;
    rememberSecret("OPENAI_API_KEY", held);
    rememberSecret("SHORT_TOKEN", "abc123");
    const fixture = `const fake = "sk-${body(40)}";`;
    assert.equal(
      redactKnownSecrets(`OPENAI_API_KEY=${held}\n${fixture}\nabc123`),
      `OPENAI_API_KEY=[redacted OPENAI_API_KEY]\n${fixture}\nabc123`,
    );
  });

  it("does not take a credentials file path for a secret", () => {
    rememberSecretsOfTree({ GOOGLE_APPLICATION_CREDENTIALS: join("/", "home", "u", "creds.json") });
    assert.equal(redactKnownSecrets("/home/u/creds.json"), "/home/u/creds.json");
  });
});

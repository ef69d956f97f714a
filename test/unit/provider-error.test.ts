import { strict as assert } from "node:assert";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { describeProviderError, toProviderError } from "../../agent/providers/provider-error.js";
import { redactSecrets } from "../../agent/security/secret-redaction.js";

const runtime: RuntimeProvider = {
  providerId: "openrouter",
  providerLabel: "OpenRouter",
  model: "a/b",
  baseUrl: "https://openrouter.ai/api/v1",
  apiMode: "chat_completions",
  apiKey: "sk-or-secret",
  keySource: "OPENROUTER_API_KEY",
  keyVariables: ["OPENROUTER_API_KEY"],
  keyOptional: false,
  contextLength: undefined,
};

describe("provider errors", () => {
  it("classifies SDK errors by status and name", () => {
    assert.equal(toProviderError({ status: 401, message: "401 nope" }).kind, "auth");
    assert.equal(toProviderError({ status: 403 }).kind, "auth");
    assert.equal(toProviderError({ status: 404 }).kind, "not_found");
    assert.equal(toProviderError({ status: 429 }).kind, "rate_limit");
    assert.equal(toProviderError({ status: 502 }).kind, "server");
    assert.equal(toProviderError({ status: 400 }).kind, "bad_request");
    assert.equal(toProviderError({ name: "APIUserAbortError" }).kind, "aborted");
    assert.equal(toProviderError({ name: "APIConnectionTimeoutError" }).kind, "timeout");
    assert.equal(toProviderError({ name: "APIConnectionError", message: "Connection error." }).kind, "network");
    const aborted = new AbortController();
    aborted.abort();
    assert.equal(toProviderError(new Error("whatever"), aborted.signal).kind, "aborted");
  });

  it("reads Retry-After in seconds and as a date", () => {
    const headers = new Headers({ "retry-after": "3" });
    assert.equal(toProviderError({ status: 429, headers }).retryAfterMs, 3000);
    const later = new Date(Date.now() + 10_000).toUTCString();
    const ms = toProviderError({ status: 429, headers: new Headers({ "retry-after": later }) }).retryAfterMs!;
    assert.ok(ms > 5000 && ms <= 10_000);
  });

  it("words a 401 with the provider and the key variable, never the key", () => {
    const text = describeProviderError(toProviderError({ status: 401, message: "401 User not found." }), runtime);
    assert.match(
      text,
      /^OpenRouter \(https:\/\/openrouter\.ai\/api\/v1\) refused the request with HTTP 401: check OPENROUTER_API_KEY/,
    );
    assert.match(text, /The provider said: User not found\./);
    assert.ok(!text.includes("sk-or-secret"));
  });

  it("masks keys that leak into log lines", () => {
    assert.equal(redactSecrets("Authorization: Bearer abcdefghijklmnop"), "Authorization: Bearer …[redacted]");
    assert.equal(redactSecrets("key sk-ant-api03-abcdefghijklmnopqrstuvwxyz"), "key sk-ant-api03-…[redacted]");
  });
});

import { strict as assert } from "node:assert";
import { Conversation } from "../../agent/loop/conversation.js";
import { runModelStep } from "../../agent/loop/model-step.js";
import { createModelClientWithFallbacks } from "../../agent/providers/create-model-client.js";
import { ProviderError, toProviderError } from "../../agent/providers/provider-error.js";
import { retryDelayMs } from "../../agent/providers/retrying-client.js";
import type { AgentEvent } from "../../agent/tools/turn-events.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { failure, fastRetry, request, runtimeFor, step } from "../helpers/provider-steps.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

describe("model providers over real HTTP", () => {
  let llm: ScriptedLlm;
  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => llm.close());

  it("does not retry a stream that broke after text was shown", async () => {
    llm.enqueue({ kind: "text", chunks: ["Half"], cutOff: true }, { kind: "text", chunks: ["Whole"] });
    const events: string[] = [];
    const client = createModelClientWithFallbacks(
      runtimeFor(llm, "chat_completions"),
      [runtimeFor(llm, "anthropic_messages")],
      fastRetry(),
    );
    const error = await failure(
      runModelStep(
        client,
        request(),
        new AbortController().signal,
        (e) => e.type === "text_delta" && events.push(e.text),
        "gen_",
      ),
    );
    assert.equal(error.kind, "network");
    assert.deepEqual(events, ["Half"]);
    assert.equal(llm.requests.length, 1, "neither a retry nor a fallback re-streams what the user saw");
    assert.equal(llm.pending, 1);
  });

  it("does not retry auth failures", async () => {
    llm.enqueue({ kind: "error", status: 401, message: "nope" }, { kind: "text", chunks: ["unused"] });
    assert.equal(
      (await failure(step(createModelClientWithFallbacks(runtimeFor(llm, "chat_completions"), [], fastRetry())))).kind,
      "auth",
    );
    assert.equal(llm.requests.length, 1);
    assert.equal(llm.pending, 1);
  });

  it("gives up after maxRetries", async () => {
    llm.enqueue(
      { kind: "error", status: 503, message: "busy" },
      { kind: "error", status: 503, message: "busy" },
      { kind: "text", chunks: ["unused"] },
    );
    const asked: number[] = [];
    const error = await failure(
      step(
        createModelClientWithFallbacks(runtimeFor(llm, "chat_completions"), [], { ...fastRetry(asked), maxRetries: 1 }),
      ),
    );
    assert.equal(error.kind, "server");
    assert.equal(asked.length, 1);
    assert.equal(llm.requests.length, 2);
  });

  it("stops waiting for a retry at once when cancelled", async () => {
    llm.enqueue({ kind: "error", status: 429, message: "later", retryAfter: 30 });
    const controller = new AbortController();
    const client = createModelClientWithFallbacks(runtimeFor(llm, "chat_completions"), []);
    const started = Date.now();
    const pending = failure(step(client, request(), controller.signal));
    await llm.waitForRequests(1);
    setTimeout(() => controller.abort(), 50);
    assert.equal((await pending).kind, "aborted");
    assert.ok(Date.now() - started < 15_000, "long before the 30 s Retry-After");
  });

  describe("fallback_providers", () => {
    let second: ScriptedLlm;
    beforeEach(async () => (second = await ScriptedLlm.start()));
    afterEach(async () => second.close());

    it("answers from the next provider, with its own model, when the primary fails", async () => {
      llm.enqueue({ kind: "error", status: 401, message: "bad key" });
      second.enqueue({ kind: "text", chunks: ["from the fallback"] });
      const switched: string[] = [];
      const client = createModelClientWithFallbacks(
        runtimeFor(llm, "chat_completions"),
        [runtimeFor(second, "anthropic_messages", { model: "claude-fallback" })],
        fastRetry(),
        { onFallback: (from, to, error) => switched.push(`${from.apiMode}->${to.apiMode}:${error.kind}`) },
      );
      assert.equal((await step(client)).text, "from the fallback");
      assert.equal(second.requests[0]!.json.model, "claude-fallback");
      assert.deepEqual(switched, ["chat_completions->anthropic_messages:auth"]);
    });

    it("tries each in order after the primary's retries, and reports every failure", async () => {
      llm.enqueue(
        { kind: "error", status: 500, message: "down" },
        { kind: "error", status: 500, message: "still down" },
      );
      second.enqueue({ kind: "error", status: 403, message: "forbidden" }, { kind: "text", chunks: ["third time"] });
      const fallbacks = [
        runtimeFor(second, "codex_responses", { providerLabel: "Second", keyVariables: ["SECOND_KEY"] }),
      ];
      const error = await failure(
        step(
          createModelClientWithFallbacks(runtimeFor(llm, "chat_completions"), fallbacks, {
            ...fastRetry(),
            maxRetries: 1,
          }),
        ),
      );
      assert.equal(error.kind, "server");
      assert.match(error.message, /still down.*Fallback 1 failed too: Second .* HTTP 403: check SECOND_KEY/);
      assert.equal(llm.requests.length, 2);
      assert.equal(second.requests.length, 1, "a 403 is not retried");
    });
  });

  it("keeps a broken reply out of the conversation history", async () => {
    const temp = new TempDirs();
    try {
      llm.enqueue({ kind: "text", chunks: ["Half a sen"], cutOff: true }, { kind: "text", chunks: ["Whole"] });
      const convo = new Conversation({
        runtime: runtimeFor(llm, "anthropic_messages"),
        systemPrompt: "system",
        openModelClient: async (runtime) => createModelClientWithFallbacks(runtime, [], fastRetry()),
        tools: [],
        maxIterations: 5,
      });
      const env = toolEnvironment(temp.make(), temp.make());
      const events: AgentEvent[] = [];
      await convo.runTurn("tell me", new AbortController().signal, (e) => events.push(e), env);
      assert.ok(events.some((e) => e.type === "error" && /cut off/.test(e.message)));
      await convo.runTurn("again", new AbortController().signal, () => {}, env);
      assert.deepEqual(llm.requests[1]!.json.messages, [
        { role: "user", content: [{ type: "text", text: "again", cache_control: { type: "ephemeral" } }] },
      ]);
      assert.deepEqual(convo.messages, [
        { role: "user", content: "again" },
        { role: "assistant", content: "Whole" },
      ]);
    } finally {
      temp.cleanup();
    }
  });
});

describe("retry delays", () => {
  const error = (retryAfterMs?: number) => new ProviderError("server", "x", 500, retryAfterMs);
  it("grows exponentially with full jitter, capped", () => {
    const options = { baseDelayMs: 1000, maxDelayMs: 30_000, random: () => 0.999 };
    assert.deepEqual(
      [1, 2, 3, 6, 10].map((n) => retryDelayMs(error(), n, options)),
      [999, 1998, 3996, 29_970, 29_970],
    );
    assert.equal(retryDelayMs(error(), 3, { ...options, random: () => 0 }), 0);
  });
  it("honours Retry-After up to 60 s", () => {
    assert.equal(retryDelayMs(error(2500), 1), 2500);
    assert.equal(retryDelayMs(error(3_600_000), 1), 60_000);
    assert.equal(toProviderError({ status: 429, headers: new Headers({ "retry-after": "0.05" }) }).retryAfterMs, 50);
  });
});

import { strict as assert } from "node:assert";
import { readFallbackSettings, resolveFallbackProviders } from "../../agent/config/fallback-settings.js";
import type { ApiMode } from "../../agent/config/provider-catalog.js";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { Conversation } from "../../agent/loop/conversation.js";
import type { AgentEvent } from "../../agent/loop/events.js";
import { runModelStep } from "../../agent/loop/model-step.js";
import { createModelClient, createModelClientWithFallbacks } from "../../agent/providers/create-model-client.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import type { ModelClient, ModelRequest } from "../../agent/providers/model-client.js";
import { describeProviderError, ProviderError, toProviderError } from "../../agent/providers/provider-error.js";
import { abortableSleep, type RetryOptions, retryDelayMs } from "../../agent/providers/retrying-client.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

const SECRET = "sk-test-secret-4242";
const MODES: readonly ApiMode[] = ["chat_completions", "codex_responses", "anthropic_messages"];

function runtimeFor(llm: ScriptedLlm, apiMode: ApiMode, extra: Partial<RuntimeProvider> = {}): RuntimeProvider {
  return {
    providerId: "custom",
    providerLabel: `Scripted ${apiMode}`,
    model: "scripted-model",
    baseUrl: llm.baseUrl,
    apiMode,
    apiKey: SECRET,
    keySource: "CUSTOM_API_KEY",
    keyVariables: ["CUSTOM_API_KEY"],
    keyOptional: true,
    contextLength: undefined,
    ...extra,
  };
}

const TOOL = {
  name: "read_file",
  description: "Reads a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};

function request(messages: ChatMessage[] = [{ role: "user", content: "hi" }], tools = [TOOL]): ModelRequest {
  return { model: "scripted-model", systemPrompt: "You are a test.", messages, tools };
}

async function step(client: ModelClient, req = request(), signal = new AbortController().signal) {
  const events: AgentEvent[] = [];
  const result = await runModelStep(client, req, signal, (e) => events.push(e), "gen_");
  return { ...result, usage: events.filter((e) => e.type === "usage").map((e) => (e as { usage: unknown }).usage) };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Fast retries whose requested delays are recorded (and really waited, so Retry-After is honoured). */
function fastRetry(asked: number[] = []): RetryOptions {
  return { baseDelayMs: 5, maxDelayMs: 20, sleep: (ms, signal) => (asked.push(ms), abortableSleep(ms, signal)) };
}

const HISTORY: ChatMessage[] = [
  { role: "user", content: "read both" },
  {
    role: "assistant",
    content: "Reading.",
    toolCalls: [
      { id: "call_a", name: "read_file", arguments: '{"path":"a"}' },
      { id: "call_b", name: "read_file", arguments: '{"path":"b"}' },
    ],
  },
  { role: "tool", toolCallId: "call_a", content: "A" },
  { role: "tool", toolCallId: "call_b", content: "B" },
  { role: "assistant", content: "Both read." },
  { role: "user", content: "thanks" },
];

describe("model providers over real HTTP", () => {
  let llm: ScriptedLlm;
  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => llm.close());

  for (const mode of MODES) {
    describe(mode, () => {
      it("streams text, reasoning, usage and the stop reason", async () => {
        llm.enqueue({
          kind: "text",
          chunks: ["Hel", "lo ", "world"],
          reasoning: ["Let me ", "think."],
          usage: { input: 20, output: 3, cached: 8 },
        });
        const result = await step(await createModelClient(runtimeFor(llm, mode)));
        assert.equal(result.text, "Hello world");
        assert.equal(result.reasoning, "Let me think.");
        assert.equal(result.finish, "stop");
        assert.deepEqual(
          result.usage.map((u) => ({ ...(u as object), reasoningTokens: undefined })),
          [{ inputTokens: 28, outputTokens: 3, cachedInputTokens: 8, reasoningTokens: undefined }],
        );
        assert.equal(llm.requests[0]!.json.stream, true);
      });

      it("assembles tool calls whose arguments arrive in pieces", async () => {
        llm.enqueue({
          kind: "tool_calls",
          text: "Checking.",
          calls: [
            { id: "call_1", name: "read_file", argumentPieces: ['{"pa', 'th": "sr', 'c/a.ts"}'] },
            { id: "call_2", name: "read_file", argumentPieces: ["{", '"path":"b"', "}"] },
          ],
        });
        const result = await step(await createModelClient(runtimeFor(llm, mode)));
        assert.equal(result.text, "Checking.");
        assert.equal(result.finish, "tool_calls");
        assert.deepEqual(result.toolCalls, [
          { id: "call_1", name: "read_file", arguments: '{"path": "src/a.ts"}' },
          { id: "call_2", name: "read_file", arguments: '{"path":"b"}' },
        ]);
      });

      it("normalises length and refusal stops", async () => {
        llm.enqueue(
          { kind: "text", chunks: ["trunc"], finishReason: "length" },
          { kind: "text", chunks: ["no"], finishReason: "content_filter" },
        );
        const client = await createModelClient(runtimeFor(llm, mode));
        assert.equal((await step(client)).finish, "length");
        assert.equal((await step(client)).finish, "refusal");
      });

      it("reports a reply cut off mid-stream as a network failure", async () => {
        llm.enqueue({ kind: "text", chunks: ["Half a sen"], cutOff: true });
        const error = await failure(step(await createModelClient(runtimeFor(llm, mode))));
        assert.equal(error.kind, "network");
        assert.match(error.message, /cut off before the model finished/);
      });

      it("words a 401 with the provider and its key variable, never the key", async () => {
        llm.enqueue({ kind: "error", status: 401, message: "invalid x-api-key" });
        const runtime = runtimeFor(llm, mode);
        const error = await failure(step(await createModelClient(runtime)));
        assert.equal(error.kind, "auth");
        const text = describeProviderError(error, runtime);
        assert.match(text, new RegExp(`Scripted ${mode}.*HTTP 401.*CUSTOM_API_KEY`));
        assert.ok(!text.includes(SECRET));
      });

      it("honours Retry-After on a 429, then succeeds", async () => {
        llm.enqueue(
          { kind: "error", status: 429, message: "slow down", retryAfter: 0.05 },
          { kind: "text", chunks: ["ok"] },
        );
        const asked: number[] = [];
        const started = Date.now();
        const result = await step(createModelClientWithFallbacks(runtimeFor(llm, mode), [], fastRetry(asked)));
        assert.equal(result.text, "ok");
        assert.deepEqual(asked, [50]);
        assert.ok(Date.now() - started >= 45, "the delay was really waited");
        assert.equal(llm.requests.length, 2);
      });

      it("retries a 500 and then succeeds", async () => {
        llm.enqueue({ kind: "error", status: 500, message: "boom" }, { kind: "text", chunks: ["recovered"] });
        assert.equal(
          (await step(createModelClientWithFallbacks(runtimeFor(llm, mode), [], fastRetry()))).text,
          "recovered",
        );
      });
    });
  }

  it("sends the history in each wire format", async () => {
    llm.enqueue({ kind: "text", chunks: ["a"] }, { kind: "text", chunks: ["b"] }, { kind: "text", chunks: ["c"] });
    for (const mode of MODES) await step(await createModelClient(runtimeFor(llm, mode)), request(HISTORY));
    const [chat, responses, anthropic] = llm.requests.map((r) => r.json);
    assert.deepEqual(
      (chat!.messages as Array<{ role: string; tool_call_id?: string }>).map((m) => m.tool_call_id ?? m.role),
      ["system", "user", "assistant", "call_a", "call_b", "assistant", "user"],
    );
    assert.equal(responses!.instructions, "You are a test.");
    assert.deepEqual(responses!.input, [
      { role: "user", content: "read both" },
      { role: "assistant", content: "Reading." },
      { type: "function_call", call_id: "call_a", name: "read_file", arguments: '{"path":"a"}' },
      { type: "function_call", call_id: "call_b", name: "read_file", arguments: '{"path":"b"}' },
      { type: "function_call_output", call_id: "call_a", output: "A" },
      { type: "function_call_output", call_id: "call_b", output: "B" },
      { role: "assistant", content: "Both read." },
      { role: "user", content: "thanks" },
    ]);
    assert.deepEqual(responses!.tools, [
      { type: "function", name: "read_file", description: "Reads a file", parameters: TOOL.parameters, strict: false },
    ]);
    const sent = anthropic!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      sent.map((m) => `${m.role}:${m.content.map((b) => b.type).join(",")}`),
      ["user:text", "assistant:text,tool_use,tool_use", "user:tool_result,tool_result", "assistant:text", "user:text"],
    );
    assert.deepEqual(sent[1]!.content[1], { type: "tool_use", id: "call_a", name: "read_file", input: { path: "a" } });
    assert.equal(sent[2]!.content[1]!.tool_use_id, "call_b");
    assert.deepEqual(anthropic!.tools, [
      { name: "read_file", description: "Reads a file", input_schema: TOOL.parameters },
    ]);
    assert.equal(anthropic!.max_tokens, 8192);
    assert.equal(llm.requests[2]!.path, "/v1/messages");
    assert.equal(llm.requests[2]!.headers["x-api-key"], SECRET);
    assert.equal(llm.requests[2]!.headers["anthropic-version"], "2023-06-01");
  });

  it("places cache_control on the system prompt and the last 3 Anthropic messages", async () => {
    llm.enqueue({ kind: "text", chunks: ["cached"] });
    await step(await createModelClient(runtimeFor(llm, "anthropic_messages")), request(HISTORY));
    const body = llm.requests[0]!.json as {
      system: Array<Record<string, unknown>>;
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    assert.deepEqual(body.system, [{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
    const marked = body.messages.flatMap((m, i) => m.content.flatMap((b, j) => (b.cache_control ? [`${i}.${j}`] : [])));
    assert.deepEqual(marked, ["2.1", "3.0", "4.0"], "the last block of each of the last 3 messages");
  });

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

  it("serves non-streamed requests in all three wire formats", async () => {
    const { default: OpenAI } = await import("openai");
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const openai = new OpenAI({ apiKey: SECRET, baseURL: llm.baseUrl, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: SECRET, baseURL: llm.baseUrl.replace(/\/v1$/, ""), maxRetries: 0 });
    llm.enqueue(
      { kind: "text", chunks: ["chat ", "json"] },
      { kind: "tool_calls", calls: [{ id: "c1", name: "read_file", argumentPieces: ['{"path":', '"x"}'] }] },
      { kind: "text", chunks: ["claude ", "json"], reasoning: ["hmm"] },
    );
    const chat = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    assert.equal(chat.choices[0]!.message.content, "chat json");
    const responses = await openai.responses.create({ model: "m", input: "hi" });
    assert.deepEqual(
      responses.output.map((o) => (o.type === "function_call" ? `${o.call_id}:${o.arguments}` : o.type)),
      ['c1:{"path":"x"}'],
    );
    const message = await anthropic.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    assert.deepEqual(
      message.content.map((b) => (b.type === "text" ? b.text : b.type)),
      ["thinking", "claude json"],
    );
    assert.equal(message.stop_reason, "end_turn");
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

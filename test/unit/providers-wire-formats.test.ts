import { strict as assert } from "node:assert";
import type { ApiMode } from "../../agent/config/provider-catalog.js";
import { createModelClient, createModelClientWithFallbacks } from "../../agent/providers/create-model-client.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import { describeProviderError } from "../../agent/providers/provider-error.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { failure, fastRetry, request, runtimeFor, SECRET, step, TOOL } from "../helpers/provider-steps.js";

const MODES: readonly ApiMode[] = ["chat_completions", "codex_responses", "anthropic_messages"];

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

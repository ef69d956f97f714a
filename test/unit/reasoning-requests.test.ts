import { strict as assert } from "node:assert";
import * as z from "zod/v4";
import type { ReasoningEffort } from "../../agent/config/model-reasoning.js";
import type { ApiMode } from "../../agent/config/provider-catalog.js";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { Conversation } from "../../agent/loop/conversation.js";
import { runModelStep } from "../../agent/loop/model-step.js";
import { toAnthropicMessages } from "../../agent/providers/anthropic-messages.js";
import { thinkingReplayFor } from "../../agent/providers/anthropic-thinking.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import type { ModelClient, ModelRequest } from "../../agent/providers/model-client.js";
import { defineTool } from "../../agent/tools/define-tool.js";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

function runtime(llm: ScriptedLlm, apiMode: ApiMode, model: string, providerId = "custom"): RuntimeProvider {
  return {
    providerId,
    providerLabel: providerId,
    model,
    baseUrl: llm.baseUrl,
    apiMode,
    apiKey: "sk-test",
    keySource: "CUSTOM_API_KEY",
    keyVariables: ["CUSTOM_API_KEY"],
    keyOptional: true,
    contextLength: undefined,
  };
}

type Choice = ReasoningEffort | "default" | undefined;

function request(model: string, reasoningEffort?: Choice, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model,
    systemPrompt: "sys",
    messages: [{ role: "user", content: "think" }],
    tools: [],
    ...(reasoningEffort ? { reasoningEffort } : {}),
    ...extra,
  };
}

async function send(client: ModelClient, req: ModelRequest) {
  return runModelStep(client, req, new AbortController().signal, () => {}, "gen_");
}

/** The body of each request the scripted endpoint received, for one client and a list of chosen efforts. */
async function bodies(
  llm: ScriptedLlm,
  rt: RuntimeProvider,
  efforts: readonly Choice[],
  extra: Partial<ModelRequest> = {},
) {
  const client = await createModelClient(rt);
  for (const effort of efforts) {
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    await send(client, request(rt.model, effort, extra));
  }
  return llm.requests.map((r) => r.json);
}

const pick = (body: Readonly<Record<string, unknown>>, ...keys: string[]) =>
  Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, body[k]]));

describe("reasoning effort on the wire", () => {
  let llm: ScriptedLlm;
  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => llm.close());

  describe("chat completions", () => {
    it("sends OpenRouter's reasoning object, medium by default as upstream, and enabled:false for none", async () => {
      const sent = await bodies(llm, runtime(llm, "chat_completions", "anthropic/claude-sonnet-4.5", "openrouter"), [
        undefined,
        "default",
        "high",
        "none",
      ]);
      assert.deepEqual(
        sent.map((b) => pick(b, "reasoning", "reasoning_effort")),
        [
          {},
          { reasoning: { enabled: true, effort: "medium" } },
          { reasoning: { enabled: true, effort: "high" } },
          { reasoning: { enabled: false } },
        ],
      );
    });

    it("asks for the default from the agent loop, and for the chosen level once the session picks one", async () => {
      const temp = new TempDirs();
      try {
        const rt = runtime(llm, "chat_completions", "openai/gpt-5", "openrouter");
        const convo = new Conversation({
          runtime: rt,
          systemPrompt: "sys",
          openModelClient: (r) => createModelClient(r),
          tools: [],
          maxIterations: 5,
        });
        llm.enqueue({ kind: "text", chunks: ["a"] }, { kind: "text", chunks: ["b"] });
        const env = toolEnvironment(temp.make(), temp.make());
        await convo.runTurn("one", new AbortController().signal, () => {}, env);
        convo.setReasoningEffort("low");
        await convo.runTurn("two", new AbortController().signal, () => {}, env);
        assert.deepEqual(
          llm.requests.map((r) => r.json.reasoning),
          [
            { enabled: true, effort: "medium" },
            { enabled: true, effort: "low" },
          ],
        );
      } finally {
        temp.cleanup();
      }
    });

    it("never sends Nous Portal enabled:false (it requires reasoning on)", async () => {
      const sent = await bodies(llm, runtime(llm, "chat_completions", "Hermes-4-405B", "nous"), ["none", "low"]);
      assert.deepEqual(
        sent.map((b) => pick(b, "reasoning", "reasoning_effort")),
        [{}, { reasoning: { enabled: true, effort: "low" } }],
      );
    });

    it("sends OpenAI's reasoning_effort only when chosen, clamped to what the model accepts", async () => {
      const sent = await bodies(llm, runtime(llm, "chat_completions", "gpt-5.1"), [
        "default",
        "minimal",
        "xhigh",
        "none",
      ]);
      assert.deepEqual(
        sent.map((b) => b.reasoning_effort),
        [undefined, "low", "high", "none"],
      );
      assert.ok(sent.every((b) => !("reasoning" in b)));
    });

    it("sends nothing to a model known to refuse it, whatever was chosen", async () => {
      const sent = await bodies(llm, runtime(llm, "chat_completions", "gpt-4o"), ["high"]);
      assert.equal(sent[0]!.reasoning_effort, undefined);
    });

    it("asks an unknown model only when the user chose, and asks again without it when the endpoint refuses", async () => {
      const client = await createModelClient(runtime(llm, "chat_completions", "local-model"));
      llm.enqueue(
        { kind: "text", chunks: ["plain"] },
        { kind: "error", status: 400, message: "Unrecognized request argument supplied: reasoning_effort" },
        { kind: "text", chunks: ["still answered"] },
        { kind: "text", chunks: ["again"] },
        { kind: "text", chunks: ["tried anew"] },
      );
      await send(client, request("local-model", "default"));
      const answered = await send(client, request("local-model", "high"));
      assert.equal(answered.text, "still answered");
      await send(client, request("local-model", "high"));
      await send(client, request("local-model", "low"));
      assert.deepEqual(
        llm.requests.map((r) => r.json.reasoning_effort),
        [undefined, "high", undefined, undefined, "low"],
      );
    });

    it("does not hide a 400 that is not about reasoning", async () => {
      const client = await createModelClient(runtime(llm, "chat_completions", "local-model"));
      llm.enqueue({ kind: "error", status: 400, message: "context length exceeded" });
      await assert.rejects(send(client, request("local-model", "high")), /context length exceeded/);
      assert.equal(llm.requests.length, 1);
    });
  });

  describe("Responses API", () => {
    it("sends upstream's reasoning with a summary (medium by default), effort none to switch it off", async () => {
      const sent = await bodies(llm, runtime(llm, "codex_responses", "gpt-5.1"), ["default", "high", "none"]);
      assert.deepEqual(
        sent.map((b) => b.reasoning),
        [{ effort: "medium", summary: "auto" }, { effort: "high", summary: "auto" }, { effort: "none" }],
      );
    });

    it("sends nothing to gpt-4.1 even when chosen, and streams the summary as thoughts", async () => {
      const sent = await bodies(llm, runtime(llm, "codex_responses", "gpt-4.1"), ["high"]);
      assert.equal(sent[0]!.reasoning, undefined);
      llm.enqueue({ kind: "text", chunks: ["answer"], reasoning: ["weighing it"] });
      const step = await send(
        await createModelClient(runtime(llm, "codex_responses", "gpt-5")),
        request("gpt-5", "default"),
      );
      assert.equal(step.reasoning, "weighing it");
    });
  });

  describe("Anthropic Messages", () => {
    it("gives budget Claude upstream's token budget, room to answer, and no temperature", async () => {
      const sent = await bodies(
        llm,
        runtime(llm, "anthropic_messages", "claude-sonnet-4-0", "anthropic"),
        ["default", "high", "xhigh", "minimal"],
        { temperature: 0 },
      );
      assert.deepEqual(
        sent.map((b) => pick(b, "thinking", "max_tokens", "temperature")),
        [
          { max_tokens: 8192, temperature: 0 },
          { thinking: { type: "enabled", budget_tokens: 16000 }, max_tokens: 20096 },
          { thinking: { type: "enabled", budget_tokens: 32000 }, max_tokens: 36096 },
          { thinking: { type: "enabled", budget_tokens: 4000 }, max_tokens: 8192 },
        ],
      );
    });

    it("keeps the budget inside a model's output limit (Opus 4.1 writes at most 32,000 tokens)", async () => {
      const sent = await bodies(llm, runtime(llm, "anthropic_messages", "claude-opus-4-1", "anthropic"), ["xhigh"]);
      assert.deepEqual(sent[0]!.thinking, { type: "enabled", budget_tokens: 27904 });
      assert.equal(sent[0]!.max_tokens, 32000);
    });

    it("asks adaptive Claude for an effort (xhigh is max on 4.6) and switches it off with disabled", async () => {
      const sent = await bodies(llm, runtime(llm, "anthropic_messages", "claude-opus-4-6", "anthropic"), [
        "xhigh",
        "minimal",
        "none",
        "default",
      ]);
      assert.deepEqual(
        sent.map((b) => pick(b, "thinking", "output_config")),
        [
          { thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "max" } },
          { thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "low" } },
          { thinking: { type: "disabled" } },
          {},
        ],
      );
      assert.equal(sent[0]!.max_tokens, 32000);
    });

    it("sends the signed thinking back first in the tool-use continuation, and keeps it in the history", async () => {
      const temp = new TempDirs();
      try {
        const echo = defineTool({
          name: "echo",
          toolsets: ["test"],
          kind: "other",
          description: "Echoes",
          parameters: z.object({ text: z.string().optional() }),
          run: async (args) => ({ content: String(args.text) }),
        });
        const rt = runtime(llm, "anthropic_messages", "claude-sonnet-4-0", "anthropic");
        const convo = new Conversation({
          runtime: rt,
          systemPrompt: "sys",
          openModelClient: (r) => createModelClient(r),
          tools: [echo],
          maxIterations: 5,
          reasoningEffort: "medium",
        });
        llm.enqueue(
          {
            kind: "tool_calls",
            calls: [scriptedCall("toolu_1", "echo", { text: "hi" })],
            reasoning: ["I should ", "echo."],
          },
          { kind: "text", chunks: ["Done."], reasoning: ["It echoed."] },
          { kind: "text", chunks: ["Next."] },
        );
        const env = toolEnvironment(temp.make(), temp.make());
        await convo.runTurn("echo hi", new AbortController().signal, () => {}, env);
        const continuation = llm.requests[1]!.json as {
          messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
          thinking?: unknown;
        };
        assert.deepEqual(
          continuation.messages[1]!.content.map((b) => b.type),
          ["thinking", "tool_use"],
        );
        assert.deepEqual(continuation.messages[1]!.content[0], {
          type: "thinking",
          thinking: "I should echo.",
          signature: "scripted-signature",
        });
        assert.deepEqual(continuation.thinking, { type: "enabled", budget_tokens: 8000 });
        assert.deepEqual(convo.messages[1], {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "toolu_1", name: "echo", arguments: '{"text":"hi"}' }],
          reasoning: "I should echo.",
          signedThinking: [{ type: "thinking", thinking: "I should echo.", signature: "scripted-signature" }],
        });
        // Next turn: Sonnet 4 does not keep earlier thinking, so only the latest assistant turn carries its own.
        await convo.runTurn("next", new AbortController().signal, () => {}, env);
        const next = llm.requests[2]!.json as {
          messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
        };
        assert.deepEqual(
          next.messages.filter((m) => m.role === "assistant").map((m) => m.content.map((b) => b.type).join(",")),
          ["tool_use", "thinking,text"],
        );
      } finally {
        temp.cleanup();
      }
    });

    it("waits for the next turn when thinking is switched on in the middle of a tool loop", async () => {
      const history: ChatMessage[] = [
        { role: "user", content: "look" },
        { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "echo", arguments: "{}" }] },
        { role: "tool", toolCallId: "t1", content: "seen" },
      ];
      const sent = await bodies(llm, runtime(llm, "anthropic_messages", "claude-sonnet-4-0", "anthropic"), ["high"], {
        messages: history,
      });
      assert.equal(sent[0]!.thinking, undefined);
    });
  });
});

describe("signed thinking sent back to Anthropic", () => {
  const signed = { type: "thinking" as const, thinking: "plan", signature: "sig-1" };
  const history: ChatMessage[] = [
    { role: "user", content: "a" },
    { role: "assistant", content: "one", signedThinking: [signed] },
    { role: "user", content: "b" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "t1", name: "x", arguments: "{}" }],
      signedThinking: [{ type: "redacted_thinking", data: "opaque" }],
    },
    { role: "tool", toolCallId: "t1", content: "r" },
  ];
  const assistantBlocks = (replay: ReturnType<typeof thinkingReplayFor>) =>
    toAnthropicMessages(history, replay)
      .filter((m) => m.role === "assistant")
      .map((m) => (m.content as ReadonlyArray<{ type: string }>).map((b) => b.type).join(","));
  const rt = (providerId: string, baseUrl: string, model: string) => ({ providerId, baseUrl, model });

  it("goes to Anthropic on the latest turn only, or on every turn for models that keep earlier thinking", () => {
    assert.deepEqual(
      assistantBlocks(thinkingReplayFor(rt("anthropic", "https://api.anthropic.com", "claude-sonnet-4-5"))),
      ["text", "redacted_thinking,tool_use"],
    );
    assert.deepEqual(
      assistantBlocks(thinkingReplayFor(rt("custom", "https://api.anthropic.com/v1", "claude-opus-4-5"))),
      ["thinking,text", "redacted_thinking,tool_use"],
    );
  });

  it("never goes to a third-party Anthropic-compatible endpoint, which cannot check the signatures", () => {
    assert.deepEqual(
      assistantBlocks(thinkingReplayFor(rt("custom", "https://api.minimax.io/anthropic", "claude-opus-4-5"))),
      ["text", "tool_use"],
    );
  });
});

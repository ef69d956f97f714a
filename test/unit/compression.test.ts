import { strict as assert } from "node:assert";
import { findBoundaries, headEndOf } from "../../agent/compress/boundaries.js";
import {
  type CompressionSettings,
  DEFAULT_COMPRESSION_SETTINGS,
  readCompressionSettings,
} from "../../agent/compress/compression-settings.js";
import {
  compressHistory,
  formatCompressionReport,
  needsCompression,
  type Summarize,
  summarizeWith,
} from "../../agent/compress/compressor.js";
import { PRUNED_TOOL_OUTPUT, pruneToolOutputs } from "../../agent/compress/prune-tool-outputs.js";
import {
  isSummaryMessage,
  SUMMARY_END_MARKER,
  SUMMARY_HEADINGS,
  SUMMARY_PREFIX,
} from "../../agent/compress/summary-prompt.js";
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTextTokens,
} from "../../agent/compress/token-estimate.js";
import { ConfigError } from "../../agent/config/config-error.js";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";

const user = (content: string): ChatMessage => ({ role: "user", content });
const reply = (content: string): ChatMessage => ({ role: "assistant", content });
const result = (toolCallId: string, content: string): ChatMessage => ({ role: "tool", toolCallId, content });

/** One user turn: `steps` rounds of `parallel` tool calls (each with a `size`-char output), then a final answer. */
function turn(tag: string, steps: number, parallel: number, size = 400): ChatMessage[] {
  const out: ChatMessage[] = [user(`request ${tag}`)];
  for (let s = 0; s < steps; s++) {
    const calls = Array.from({ length: parallel }, (_, p) => ({
      id: `${tag}_${s}_${p}`,
      name: "read_file",
      arguments: `{"path":"src/${tag}/${s}/${p}.ts"}`,
    }));
    out.push({ role: "assistant", content: `step ${s}`, toolCalls: calls });
    for (const call of calls) out.push(result(call.id, `${call.id}:`.padEnd(size, "x")));
  }
  out.push(reply(`done ${tag}`));
  return out;
}

const history = (...turns: ChatMessage[][]): ChatMessage[] => turns.flat();

/** The loop's rules: every call answered right after it, results only after calls, no two user messages in a row. */
function assertWellFormed(messages: readonly ChatMessage[]): void {
  let open: string[] = [];
  messages.forEach((m, i) => {
    const previous = messages[i - 1];
    if (m.role === "tool") {
      assert.ok(open.includes(m.toolCallId), `message ${i}: result ${m.toolCallId} does not follow its call`);
      open = open.filter((id) => id !== m.toolCallId);
      return;
    }
    assert.deepEqual(open, [], `message ${i}: calls ${open.join(", ")} have no result`);
    if (m.role === "user") assert.notEqual(previous?.role, "user", `message ${i}: two user messages in a row`);
    if (m.role === "assistant") {
      assert.notEqual(previous?.role, "assistant", `message ${i}: two assistant messages in a row`);
      open = (m.toolCalls ?? []).map((c) => c.id);
    }
  });
}

/** Stands in for the auxiliary model: answers with each heading the prompt asked for. */
function fakeSummarizer(answer?: string) {
  const prompts: Array<{ system: string; user: string }> = [];
  const summarize: Summarize = async (system, userPrompt) => {
    prompts.push({ system, user: userPrompt });
    return (
      answer ??
      SUMMARY_HEADINGS.filter((h) => userPrompt.includes(`\n${h}\n`))
        .map((h) => `${h}\nnoted for ${h.slice(3)}`)
        .join("\n\n")
    );
  };
  return { summarize, prompts };
}

const SETTINGS: CompressionSettings = DEFAULT_COMPRESSION_SETTINGS;
const signal = new AbortController().signal;

/** A window small enough that the history is over the threshold. */
const windowFor = (messages: readonly ChatMessage[]) => Math.floor(estimateMessagesTokens(messages) * 1.5);

describe("context compression", () => {
  describe("token estimate", () => {
    it("counts 4 characters per token, CJK characters one each, and tool call arguments", () => {
      assert.equal(estimateTextTokens("abcdefgh"), 2);
      assert.equal(estimateTextTokens("压缩上下文"), 5);
      assert.equal(estimateTextTokens("ab压缩"), 3);
      const bare = estimateMessageTokens({ role: "assistant", content: "" });
      const withCall = estimateMessageTokens({
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c", name: "read_file", arguments: "x".repeat(400) }],
      });
      assert.ok(withCall - bare >= 100, "arguments count toward the estimate");
    });
  });

  describe("settings", () => {
    const read = (text: string) => readCompressionSettings(parseYamlText("/h/config.yaml", text));
    const errorOf = (text: string): ConfigError => {
      try {
        read(text);
      } catch (error) {
        if (error instanceof ConfigError) return error;
        throw error;
      }
      assert.fail("expected a ConfigError");
    };

    it("has upstream's defaults and reads the section", () => {
      assert.deepEqual(read(""), { enabled: true, threshold: 0.5, targetRatio: 0.2, protectLastN: 20 });
      assert.deepEqual(
        read("compression:\n  enabled: false\n  threshold: 0.7\n  target_ratio: 0.3\n  protect_last_n: 6\n"),
        {
          enabled: false,
          threshold: 0.7,
          targetRatio: 0.3,
          protectLastN: 6,
        },
      );
    });

    it("points at the line of a wrong type or an out-of-range value", () => {
      assert.match(
        errorOf("compression:\n  threshold: 50\n").message,
        /:2:\d+: compression\.threshold must be a number greater than 0 and at most 1/,
      );
      assert.match(
        errorOf("compression:\n  enabled: yes please\n").message,
        /:2:\d+: compression\.enabled must be true or false/,
      );
      assert.match(
        errorOf("compression:\n\n  target_ratio: 0.05\n").message,
        /:3:\d+: compression\.target_ratio must be a number between 0\.10 and 0\.80/,
      );
      assert.match(
        errorOf("compression:\n  protect_last_n: 2.5\n").message,
        /:2:\d+: compression\.protect_last_n must be a whole number/,
      );
      assert.match(errorOf("compression: 0.5\n").message, /:1:\d+: `compression` must be a mapping/);
    });
  });

  describe("pruning old tool outputs", () => {
    it("replaces large tool results before the tail only, leaving small ones and other messages alone", () => {
      const messages = history(
        turn("a", 2, 2, 1000),
        [
          user("small"),
          { role: "assistant", content: "", toolCalls: [{ id: "s", name: "x", arguments: "{}" }] },
          result("s", "ok"),
        ],
        turn("b", 1, 2, 1000),
      );
      const protectFrom = messages.length - 4;
      const { messages: pruned, pruned: count } = pruneToolOutputs(messages, protectFrom);
      assert.equal(count, 4);
      pruned.forEach((m, i) => {
        const original = messages[i]!;
        const shouldPrune = i < protectFrom && original.role === "tool" && original.content.length > 200;
        if (shouldPrune) assert.deepEqual(m, { ...original, content: PRUNED_TOOL_OUTPUT });
        else assert.equal(m, original, `message ${i} is untouched`);
      });
      assertWellFormed(pruned);
    });
  });

  describe("boundaries", () => {
    it("protects the first exchange with its tool results", () => {
      assert.equal(headEndOf(turn("a", 2, 3)), 5, "user, assistant with 3 calls, 3 results");
      assert.equal(headEndOf([user("hi"), reply("hello"), user("more")]), 2);
    });

    it("never cuts between a tool call and its results, whatever the budget", () => {
      const messages = history(turn("a", 1, 2), turn("b", 6, 4), turn("c", 5, 3, 900), turn("d", 4, 5));
      for (const budget of [0, 50, 120, 400, 900, 2000, 5000, 100_000]) {
        for (const protectLastN of [1, 3, 8, 20]) {
          const { headEnd, tailStart, carriedUser } = findBoundaries(messages, {
            tailTokenBudget: budget,
            protectLastN,
          });
          assert.ok(tailStart >= headEnd && tailStart <= messages.length);
          assert.notEqual(messages[tailStart]?.role, "tool", `budget ${budget}: the tail starts with a tool result`);
          const lastUser = messages.map((m) => m.role).lastIndexOf("user");
          assert.ok(
            lastUser >= tailStart || carriedUser === lastUser,
            `budget ${budget}: the last user message is kept`,
          );
        }
      }
    });

    it("fills the tail up to 1.5× the budget, but keeps the message floor", () => {
      const messages = history(
        turn("a", 1, 1),
        Array.from({ length: 20 }, (_, i) => [user(`q${i}`.padEnd(400, ".")), reply(`a${i}`.padEnd(400, "."))]).flat(),
      );
      const perMessage = estimateMessageTokens(messages[5]!);
      const { tailStart } = findBoundaries(messages, { tailTokenBudget: perMessage * 6, protectLastN: 20 });
      assert.equal(messages.length - tailStart, 9, "9 messages fit under 1.5 × 6");
      const floor = findBoundaries(messages, { tailTokenBudget: 0, protectLastN: 20 });
      assert.equal(messages.length - floor.tailStart, 8, "floor max(3, min(20, 8))");
      assert.equal(
        messages.length - findBoundaries(messages, { tailTokenBudget: 0, protectLastN: 1 }).tailStart,
        3,
        "floor max(3, 1)",
      );
    });

    it("pulls the tail back to the last user message, or carries it when its run is too long to keep", () => {
      const short = history(turn("a", 1, 1), turn("b", 3, 1), turn("c", 2, 2, 100));
      const lastUser = short.map((m) => m.role).lastIndexOf("user");
      const perTool = estimateMessageTokens(short[short.length - 2]!);
      assert.ok(short.length - lastUser > 4, "more than the floor and the budget after the last user message");
      assert.equal(findBoundaries(short, { tailTokenBudget: perTool * 3, protectLastN: 3 }).tailStart, lastUser);
      const long = history(turn("a", 1, 1), turn("b", 3, 1), turn("c", 30, 2, 2000));
      const bounds = findBoundaries(long, { tailTokenBudget: 2000, protectLastN: 3 });
      assert.equal(bounds.carriedUser, long.map((m) => m.role).lastIndexOf("user"));
      assert.ok(bounds.tailStart > bounds.carriedUser!);
    });
  });

  describe("compressHistory", () => {
    it("does nothing below the threshold, and compresses above it", async () => {
      const messages = history(turn("a", 1, 2), turn("b", 8, 3), turn("c", 2, 1));
      const tokens = estimateMessagesTokens(messages);
      const fake = fakeSummarizer();
      const below = await compressHistory(messages, {
        contextLength: tokens * 2 + 2,
        settings: SETTINGS,
        summarize: fake.summarize,
        signal,
      });
      assert.equal(below.compressed, false);
      assert.equal(below.messages, messages);
      assert.match(below.reason!, /below the compression threshold/);
      assert.equal(fake.prompts.length, 0, "no model call below the threshold");
      assert.equal(needsCompression(messages, tokens * 2 + 2, SETTINGS), false);
      assert.equal(needsCompression(messages, tokens * 2 - 2, SETTINGS), true);
      assert.equal(needsCompression(messages, tokens * 2 - 2, { ...SETTINGS, enabled: false }), false);
      assert.equal(needsCompression(messages, tokens * 2 + 2, SETTINGS, 10), true, "the system prompt and tools count");
      const above = await compressHistory(messages, {
        contextLength: tokens * 2 - 2,
        settings: SETTINGS,
        summarize: fake.summarize,
        signal,
      });
      assert.equal(above.compressed, true);
      assert.equal(fake.prompts.length, 1);
    });

    it("keeps the head and the tail verbatim, with one summary message carrying the headings between them", async () => {
      const messages = history(turn("a", 1, 2), turn("b", 10, 3), turn("c", 6, 2), turn("d", 2, 2, 100));
      const fake = fakeSummarizer();
      const out = await compressHistory(messages, {
        contextLength: windowFor(messages),
        settings: SETTINGS,
        summarize: fake.summarize,
        signal,
      });
      assert.ok(out.compressed, out.reason);
      const summaryAt = out.messages.findIndex(isSummaryMessage);
      assert.equal(summaryAt, headEndOf(messages));
      assert.deepEqual(
        out.messages.slice(0, summaryAt).map((m) => m.role),
        ["user", "assistant", "tool", "tool"],
      );
      const summary = out.messages[summaryAt]!.content;
      assert.ok(summary.startsWith(`${SUMMARY_PREFIX}\n\n`));
      for (const heading of SUMMARY_HEADINGS) {
        assert.ok(fake.prompts[0]!.user.includes(heading), `the prompt asks for ${heading}`);
        assert.ok(summary.includes(`${heading}\nnoted`), `the summary carries ${heading}`);
      }
      assert.ok(summary.includes(SUMMARY_END_MARKER));
      assert.ok(
        summary.endsWith(SUMMARY_END_MARKER),
        "this tail starts with an assistant message, so nothing is merged",
      );
      const tail = out.messages.slice(summaryAt + 1);
      assert.equal(tail[0]!.role, "assistant");
      assert.deepEqual(
        tail,
        messages.slice(messages.length - tail.length),
        "the tail is the end of the history, unchanged",
      );
      assert.ok(
        out.messages.some((m) => m.role === "user" && m.content.endsWith("request d")),
        "the last user message survives",
      );
      assertWellFormed(out.messages);
    });

    it("puts the last user message right after the summary: merged when the tail starts with it, carried when its run is too long", async () => {
      const messages = history(turn("a", 2, 3), turn("b", 9, 4, 700), turn("c", 12, 5, 300), turn("d", 7, 3, 1200));
      const lastUser = messages.findIndex((m) => m.content === "request d");
      for (const [targetRatio, tailStart] of [
        [0.2, lastUser + 1],
        [0.1, undefined],
      ] as const) {
        const settings = { ...SETTINGS, targetRatio };
        const out = await compressHistory(messages, {
          contextLength: windowFor(messages),
          settings,
          summarize: fakeSummarizer().summarize,
          signal,
        });
        assert.ok(out.compressed, out.reason);
        const summaryAt = out.messages.findIndex(isSummaryMessage);
        assert.ok(
          out.messages[summaryAt]!.content.endsWith(`${SUMMARY_END_MARKER}\n\nrequest d`),
          `ratio ${targetRatio}`,
        );
        const tail = out.messages.slice(summaryAt + 1);
        assert.deepEqual(tail, messages.slice(messages.length - tail.length), "the rest of the tail is verbatim");
        if (tailStart !== undefined)
          assert.equal(messages.length - tail.length, tailStart, "merged: the tail began with the user message");
        else
          assert.ok(messages.length - tail.length > lastUser + 1, "carried: part of the run after it was summarised");
        assertWellFormed(out.messages);
      }
    });

    it("never separates parallel tool calls from their results", async () => {
      const messages = history(turn("a", 2, 3), turn("b", 9, 4, 700), turn("c", 12, 5, 300), turn("d", 7, 3, 1200));
      for (const targetRatio of [0.1, 0.2, 0.5, 0.8]) {
        for (const protectLastN of [1, 4, 20]) {
          const settings = { ...SETTINGS, targetRatio, protectLastN };
          const out = await compressHistory(messages, {
            contextLength: windowFor(messages),
            settings,
            summarize: fakeSummarizer().summarize,
            signal,
          });
          assert.ok(out.compressed, out.reason);
          assertWellFormed(out.messages);
          assert.ok(
            out.messages.some((m) => m.content.includes("request d")),
            "the last user message survives",
          );
        }
      }
    });

    it("prunes old tool outputs outside the tail and reports tokens before and after", async () => {
      const messages = history(turn("a", 1, 2, 3000), turn("b", 8, 3, 3000), turn("c", 1, 1, 3000));
      const out = await compressHistory(messages, {
        contextLength: windowFor(messages),
        settings: SETTINGS,
        summarize: fakeSummarizer().summarize,
        signal,
        fixedTokens: 500,
      });
      assert.ok(out.compressed);
      assert.deepEqual(
        out.messages.slice(2, 4).map((m) => m.content),
        [PRUNED_TOOL_OUTPUT, PRUNED_TOOL_OUTPUT],
        "the head's old outputs are pruned",
      );
      assert.ok(out.prunedToolOutputs! >= 2);
      assert.equal(out.beforeTokens, estimateMessagesTokens(messages) + 500);
      assert.equal(out.afterTokens, estimateMessagesTokens(out.messages) + 500);
      assert.ok(out.afterTokens < out.beforeTokens / 2);
      assert.equal(
        formatCompressionReport(messages, out),
        `Context compressed: ${messages.length} -> ${out.messages.length} messages\n~${out.beforeTokens.toLocaleString("en-US")} -> ~${out.afterTokens.toLocaleString("en-US")} tokens`,
      );
    });

    it("compresses on demand (force) below the threshold, even when disabled, with a focus topic", async () => {
      const messages = history(turn("a", 1, 1), turn("b", 4, 2), turn("c", 4, 2), turn("d", 1, 1));
      const fake = fakeSummarizer();
      const settings = { ...SETTINGS, enabled: false };
      const out = await compressHistory(messages, {
        contextLength: 1_000_000,
        settings,
        summarize: fake.summarize,
        signal,
        force: true,
        focus: "the parser",
      });
      assert.ok(out.compressed, out.reason);
      assert.match(fake.prompts[0]!.user, /FOCUS TOPIC: "the parser"/);
      assert.match(fake.prompts[0]!.system, /\[REDACTED\]/);
      assertWellFormed(out.messages);
      const tooShort = await compressHistory(turn("a", 2, 1), {
        contextLength: 1000,
        settings,
        summarize: fake.summarize,
        signal,
        force: true,
      });
      assert.equal(tooShort.compressed, false);
      assert.match(tooShort.reason!, /Not enough conversation/);
    });

    it("updates the previous summary on re-compression instead of nesting it", async () => {
      const first = history(turn("a", 1, 1), turn("b", 8, 2), turn("c", 2, 1));
      const fake = fakeSummarizer();
      const once = await compressHistory(first, {
        contextLength: windowFor(first),
        settings: SETTINGS,
        summarize: fake.summarize,
        signal,
      });
      assert.ok(once.compressed, once.reason);
      const grown = [...once.messages, ...turn("e", 8, 2), ...turn("f", 2, 1)];
      const twice = await compressHistory(grown, {
        contextLength: windowFor(grown),
        settings: SETTINGS,
        summarize: fake.summarize,
        signal,
      });
      assert.ok(twice.compressed, twice.reason);
      assert.match(fake.prompts[1]!.user, /PREVIOUS SUMMARY:\n## Goal\nnoted/);
      assert.doesNotMatch(fake.prompts[1]!.user, /CONTEXT COMPACTION/, "the old summary is not summarised as a turn");
      assert.equal(twice.messages.filter(isSummaryMessage).length, 1);
      assertWellFormed(twice.messages);
    });

    it("splits a summary merged with the user's message again before updating it", async () => {
      const messages = history(turn("a", 2, 3), turn("b", 9, 4, 700), turn("c", 12, 5, 300), turn("d", 7, 3, 1200));
      const settings = { ...SETTINGS, targetRatio: 0.2 };
      const fake = fakeSummarizer();
      const once = await compressHistory(messages, {
        contextLength: windowFor(messages),
        settings,
        summarize: fake.summarize,
        signal,
      });
      const merged = once.messages.find(isSummaryMessage)!;
      assert.ok(
        merged.content.endsWith("\n\nrequest d"),
        "the first compression merged the summary with the user's message",
      );
      const grown = [...once.messages, ...turn("e", 10, 3, 900), ...turn("f", 3, 2)];
      const twice = await compressHistory(grown, {
        contextLength: windowFor(grown),
        settings,
        summarize: fake.summarize,
        signal,
      });
      assert.ok(twice.compressed, twice.reason);
      assert.match(
        fake.prompts[1]!.user,
        /PREVIOUS SUMMARY:\n## Goal\nnoted[\s\S]*NEW TURNS TO INCORPORATE:\n\[USER\]: request d\n/,
      );
      assert.equal(twice.messages.filter(isSummaryMessage).length, 1);
      assert.ok(twice.messages.some((m) => m.role === "user" && m.content.endsWith("request f")));
      assertWellFormed(twice.messages);
    });

    it("leaves the history untouched when the summary fails", async () => {
      const messages = history(turn("a", 1, 1), turn("b", 8, 2), turn("c", 2, 1));
      const failing: Summarize = async () => {
        throw new Error("model unavailable");
      };
      const out = await compressHistory(messages, {
        contextLength: windowFor(messages),
        settings: SETTINGS,
        summarize: failing,
        signal,
      });
      assert.equal(out.compressed, false);
      assert.equal(out.messages, messages);
      assert.match(out.reason!, /model unavailable/);
      const empty = await compressHistory(messages, {
        contextLength: windowFor(messages),
        settings: SETTINGS,
        summarize: fakeSummarizer("  ").summarize,
        signal,
      });
      assert.match(empty.reason!, /no text/);
      const cancel = new AbortController();
      const cancelled = await compressHistory(messages, {
        contextLength: windowFor(messages),
        settings: SETTINGS,
        signal: cancel.signal,
        summarize: async () => {
          cancel.abort();
          throw new Error("aborted");
        },
      });
      assert.deepEqual(
        [cancelled.compressed, cancelled.reason, cancelled.messages],
        [false, "Compression was cancelled.", messages],
      );
    });

    it("summarises with the real model client (no tools, the prompt as one user message)", async () => {
      const llm = await ScriptedLlm.start();
      try {
        const runtime: RuntimeProvider = {
          providerId: "custom",
          providerLabel: "Scripted",
          model: "aux-model",
          baseUrl: llm.baseUrl,
          apiMode: "chat_completions",
          apiKey: "sk-test",
          keySource: "CUSTOM_API_KEY",
          keyVariables: ["CUSTOM_API_KEY"],
          keyOptional: true,
          contextLength: undefined,
        };
        const text = SUMMARY_HEADINGS.map((h) => `${h}\nfrom the model`).join("\n\n");
        llm.enqueue({ kind: "text", chunks: [text.slice(0, 40), text.slice(40)], reasoning: ["thinking"] });
        const messages = history(turn("a", 1, 1), turn("b", 8, 2), turn("c", 2, 1));
        const summarize = summarizeWith(await createModelClient(runtime), runtime.model);
        const out = await compressHistory(messages, {
          contextLength: windowFor(messages),
          settings: SETTINGS,
          summarize,
          signal,
        });
        assert.ok(out.compressed, out.reason);
        assert.equal(out.summary, text);
        const request = llm.requests[0]!;
        assert.equal(request.body.model, "aux-model");
        assert.equal((request.body.tools ?? []).length, 0);
        assert.deepEqual(
          request.body.messages.map((m) => m.role),
          ["system", "user"],
        );
        assert.match(request.body.messages[1]!.content!, /TURNS TO SUMMARIZE:[\s\S]*## Critical Context/);
        assertWellFormed(out.messages);
      } finally {
        await llm.close();
      }
    });
  });
});

import { strict as assert } from "node:assert";
import { compressHistory, type Summarize, summarizeWith } from "../../agent/compress/compressor.js";
import { isSummaryMessage, SUMMARY_HEADINGS } from "../../agent/compress/summary-prompt.js";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import {
  assertWellFormed,
  fakeSummarizer,
  history,
  SETTINGS,
  signal,
  turn,
  windowFor,
} from "../helpers/compression-history.js";

describe("context compression", () => {
  describe("compressHistory", () => {
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

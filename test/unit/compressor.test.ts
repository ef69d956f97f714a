import { strict as assert } from "node:assert";
import { headEndOf } from "../../agent/compress/boundaries.js";
import { compressHistory, formatCompressionReport, needsCompression } from "../../agent/compress/compressor.js";
import { PRUNED_TOOL_OUTPUT } from "../../agent/compress/prune-tool-outputs.js";
import {
  isSummaryMessage,
  SUMMARY_END_MARKER,
  SUMMARY_HEADINGS,
  SUMMARY_PREFIX,
} from "../../agent/compress/summary-prompt.js";
import { estimateMessagesTokens } from "../../agent/compress/token-estimate.js";
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
  });
});

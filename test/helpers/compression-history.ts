/**
 * Histories for the compression tests: messages, whole turns of tool calls, the loop's well-formedness rules, and a
 * summarizer that stands in for the auxiliary model.
 */
import { strict as assert } from "node:assert";
import { type CompressionSettings, DEFAULT_COMPRESSION_SETTINGS } from "../../agent/compress/compression-settings.js";
import type { Summarize } from "../../agent/compress/compressor.js";
import { SUMMARY_HEADINGS } from "../../agent/compress/summary-prompt.js";
import { estimateMessagesTokens } from "../../agent/compress/token-estimate.js";
import type { ChatMessage } from "../../agent/providers/messages.js";

export const user = (content: string): ChatMessage => ({ role: "user", content });
export const reply = (content: string): ChatMessage => ({ role: "assistant", content });
export const result = (toolCallId: string, content: string): ChatMessage => ({ role: "tool", toolCallId, content });

/** One user turn: `steps` rounds of `parallel` tool calls (each with a `size`-char output), then a final answer. */
export function turn(tag: string, steps: number, parallel: number, size = 400): ChatMessage[] {
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

export const history = (...turns: ChatMessage[][]): ChatMessage[] => turns.flat();

/** The loop's rules: every call answered right after it, results only after calls, no two user messages in a row. */
export function assertWellFormed(messages: readonly ChatMessage[]): void {
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
export function fakeSummarizer(answer?: string) {
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

export const SETTINGS: CompressionSettings = DEFAULT_COMPRESSION_SETTINGS;
export const signal = new AbortController().signal;

/** A window small enough that the history is over the threshold. */
export const windowFor = (messages: readonly ChatMessage[]) => Math.floor(estimateMessagesTokens(messages) * 1.5);

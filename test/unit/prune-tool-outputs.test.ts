import { strict as assert } from "node:assert";
import { PRUNED_TOOL_OUTPUT, pruneToolOutputs } from "../../agent/compress/prune-tool-outputs.js";
import { assertWellFormed, history, result, turn, user } from "../helpers/compression-history.js";

describe("context compression", () => {
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
});

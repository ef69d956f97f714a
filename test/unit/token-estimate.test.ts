import { strict as assert } from "node:assert";
import { estimateMessageTokens, estimateTextTokens } from "../../agent/compress/token-estimate.js";

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
});

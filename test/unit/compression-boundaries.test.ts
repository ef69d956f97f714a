import { strict as assert } from "node:assert";
import { findBoundaries, headEndOf } from "../../agent/compress/boundaries.js";
import { estimateMessageTokens } from "../../agent/compress/token-estimate.js";
import { history, reply, turn, user } from "../helpers/compression-history.js";

describe("context compression", () => {
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
});

import { strict as assert } from "node:assert";
import {
  applySystemAndThree,
  type CacheableBlock,
  type CacheableMessage,
  MAX_CACHE_BREAKPOINTS,
} from "../../agent/providers/cache-control.js";

type Block = CacheableBlock & { readonly text?: string };
const text = (t: string): Block => ({ type: "text", text: t });
const user = (...blocks: Block[]): CacheableMessage<Block> => ({ role: "user", content: blocks });
const assistant = (...blocks: Block[]): CacheableMessage<Block> => ({ role: "assistant", content: blocks });

function markers(result: ReturnType<typeof applySystemAndThree<Block>>): string[] {
  const found: string[] = [];
  result.system.forEach((b, i) => b.cache_control && found.push(`system[${i}]`));
  result.messages.forEach((m, i) => {
    if (typeof m.content === "string") return;
    m.content.forEach((b, j) => b.cache_control && found.push(`messages[${i}][${j}]`));
  });
  return found;
}

describe("prompt caching (system_and_3)", () => {
  it("marks the system prompt and the last 3 messages, on their last block", () => {
    const messages = [
      user(text("a")),
      assistant(text("b")),
      user(text("c"), text("c2")),
      assistant(text("d")),
      user(text("e")),
    ];
    const result = applySystemAndThree([text("system")], messages);
    assert.deepEqual(markers(result), ["system[0]", "messages[2][1]", "messages[3][0]", "messages[4][0]"]);
    assert.deepEqual(result.system[0]!.cache_control, { type: "ephemeral" });
  });

  it("never uses more than 4 breakpoints; without a system prompt the last 4 messages get them", () => {
    const many = Array.from({ length: 10 }, (_, i) => (i % 2 ? assistant(text(`${i}`)) : user(text(`${i}`))));
    assert.equal(markers(applySystemAndThree([text("s")], many)).length, MAX_CACHE_BREAKPOINTS);
    assert.deepEqual(markers(applySystemAndThree([], many)), [
      "messages[6][0]",
      "messages[7][0]",
      "messages[8][0]",
      "messages[9][0]",
    ]);
  });

  it("uses fewer when there are fewer messages", () => {
    assert.deepEqual(markers(applySystemAndThree([text("s")], [user(text("hi"))])), ["system[0]", "messages[0][0]"]);
    assert.deepEqual(markers(applySystemAndThree([], [])), []);
  });

  it("turns string content into a marked text block and passes over empty messages", () => {
    const messages: Array<CacheableMessage<Block>> = [
      { role: "user", content: "hello" },
      { role: "assistant", content: [] },
      { role: "user", content: "" },
    ];
    const result = applySystemAndThree([], messages);
    assert.deepEqual(result.messages[0], {
      role: "user",
      content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }],
    });
    assert.deepEqual(result.messages[1], messages[1], "nothing to carry a marker");
    assert.equal(result.messages[2], messages[2]);
  });

  it("adds ttl 1h when asked", () => {
    const result = applySystemAndThree([text("s")], [user(text("u"))], "1h");
    assert.deepEqual(result.system[0]!.cache_control, { type: "ephemeral", ttl: "1h" });
    assert.deepEqual((result.messages[0]!.content as Block[])[0]!.cache_control, { type: "ephemeral", ttl: "1h" });
  });

  it("leaves its inputs untouched", () => {
    const system = [text("s")];
    const messages = [user(text("a")), assistant(text("b"))];
    const before = JSON.stringify({ system, messages });
    applySystemAndThree(system, messages, "1h");
    assert.equal(JSON.stringify({ system, messages }), before);
  });

  it("marks only the last of several system blocks", () => {
    assert.deepEqual(markers(applySystemAndThree([text("one"), text("two")], [])), ["system[1]"]);
  });
});

import { strict as assert } from "node:assert";
import {
  applyCommand,
  applyMention,
  InputHistory,
  imageProblem,
  matchCommands,
  mentionQuery,
  slashQuery,
} from "../../webview-ui/composer-logic.js";

const commands = [
  { name: "compress", description: "Compress the context" },
  { name: "model", description: "Switch model", hint: "<name>" },
  { name: "memory", description: "Show memory" },
  { name: "usage", description: "Token usage" },
];

describe("webview composer", () => {
  it("completes a slash command only while the caret is in the leading word", () => {
    assert.equal(slashQuery("/mo", 3), "mo");
    assert.equal(slashQuery("/", 1), "");
    assert.equal(slashQuery("/model gpt", 10), undefined);
    assert.equal(slashQuery("hello /mo", 9), undefined);
    assert.deepEqual(
      matchCommands(commands, "m").map((c) => c.name),
      ["model", "memory", "compress"],
      "prefix matches first",
    );
    assert.deepEqual(
      matchCommands(commands, "age").map((c) => c.name),
      ["usage"],
    );
    assert.deepEqual(applyCommand("/mo", commands[1]!), { text: "/model ", caret: 7 });
    assert.deepEqual(applyCommand("/mo gpt-5", commands[1]!), { text: "/model gpt-5", caret: 7 });
  });

  it("turns @partial into the server's @file: reference, quoting paths with spaces", () => {
    const mention = mentionQuery("see @src/a", 10)!;
    assert.deepEqual(mention, { start: 4, query: "src/a" });
    assert.deepEqual(applyMention("see @src/a", mention, 10, "src/app.ts"), {
      text: "see @file:src/app.ts ",
      caret: 21,
    });
    const spaced = mentionQuery("@my", 3)!;
    assert.equal(applyMention("@my", spaced, 3, "my docs/a b.md").text, "@file:`my docs/a b.md` ");
    assert.equal(mentionQuery("mail me at a@b.c", 16), undefined, "an e-mail address is not a mention");
    assert.deepEqual(mentionQuery("@file:src", 9), { start: 0, query: "src" });
  });

  it("walks the input history with ↑/↓ and returns to the draft being typed", () => {
    const history = new InputHistory(["first", "second"]);
    assert.equal(history.previous("draft"), "second");
    assert.equal(history.previous("second"), "first");
    assert.equal(history.previous("first"), undefined);
    assert.equal(history.next(), "second");
    assert.equal(history.next(), "draft");
    assert.equal(history.next(), undefined);
    history.push("third");
    history.push("third");
    assert.deepEqual(history.all, ["first", "second", "third"]);
  });

  it("accepts PNG/JPEG/GIF/WebP images up to 5 MB and says why anything else is refused", () => {
    assert.equal(imageProblem("image/png", 1000), undefined);
    assert.equal(imageProblem("image/webp", 5 * 1024 * 1024), undefined);
    assert.match(imageProblem("image/svg+xml", 100)!, /Only PNG, JPEG, GIF and WebP/);
    assert.match(imageProblem("image/jpeg", 6 * 1024 * 1024)!, /limited to 5 MB \(this one is 6\.0 MB\)/);
  });
});

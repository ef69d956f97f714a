import { strict as assert } from "node:assert";
import { PassThrough } from "node:stream";
import { createPrompter } from "../../acp-server/commands/setup-prompter.js";

/** A stand-in for a terminal: readline sees isTTY and switches to raw mode, echoing each key through its output. */
function fakeTerminal(): PassThrough & { isTTY: boolean; setRawMode(on: boolean): void } {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: (_on: boolean) => {} });
}

describe("setup-prompter: questions on a terminal and over a pipe", () => {
  it("on a terminal, echoes an ordinary answer and hides a secret as it is typed", async () => {
    const input = fakeTerminal();
    const output = new PassThrough();
    let screen = "";
    output.on("data", (d: Buffer) => (screen += d.toString("utf8")));
    const prompter = createPrompter(input, output, () => {});
    const model = prompter.ask("Model: ");
    input.write("gpt-5\r");
    assert.equal(await model, "gpt-5");
    const key = prompter.ask("API key: ", { secret: true });
    for (const ch of "sk-typed-secret-123") input.write(ch);
    input.write("\r");
    assert.equal(await key, "sk-typed-secret-123");
    prompter.close();
    const plain = screen.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
    assert.match(plain, /Model: gpt-5/);
    assert.match(plain, /API key: /);
    assert.ok(!plain.includes("typed-secret"), "no character of the key reached the screen");
  });

  it("over a pipe, answers that arrive before their questions are kept, and the end of input is undefined", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    input.end("first\n  second  \n");
    const prompter = createPrompter(input, output, () => {});
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await prompter.ask("One? "), "first");
    assert.equal(await prompter.ask("Two? "), "second");
    assert.equal(await prompter.ask("Three? "), undefined);
    prompter.close();
  });
});

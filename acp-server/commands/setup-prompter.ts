import { createInterface } from "node:readline";
import { Writable } from "node:stream";

/** Questions on a terminal or over piped stdin, one answer a line. */
export interface Prompter {
  /** The next line typed or piped, trimmed; undefined once stdin has ended. A secret is not echoed on a terminal. */
  ask(question: string, options?: { readonly secret?: boolean }): Promise<string | undefined>;
  close(): void;
}

/**
 * A prompter over readline. Piped answers may all arrive before the first question is asked (`printf 'a\nb\n' |`),
 * and readline hands a line to a pending `question()` only, dropping the rest: lines are queued here instead and each
 * question takes the next one. On a terminal readline echoes what is typed through its output, so a muted output
 * hides a key as it is typed (nothing is shown, not even asterisks, so its length does not show either).
 * Ctrl-C ends the setup at once; what was already written stays written.
 */
export function createPrompter(
  input: NodeJS.ReadableStream & { readonly isTTY?: boolean },
  output: NodeJS.WritableStream,
  onInterrupt: () => void,
): Prompter {
  let muted = false;
  const echo = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const terminal = input.isTTY === true;
  const lines = createInterface({ input, output: echo, terminal, historySize: 0 });
  const queued: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  lines.on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queued.push(line);
  });
  lines.on("close", () => {
    ended = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  lines.on("SIGINT", onInterrupt);

  const nextLine = (): Promise<string | undefined> => {
    if (queued.length > 0) return Promise.resolve(queued.shift());
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };

  return {
    async ask(question, options = {}) {
      if (ended && queued.length === 0) {
        output.write(`${question}\n`);
        return undefined;
      }
      // Through readline's own prompt, so that its redraws (a backspace on a terminal) keep the question on screen.
      lines.setPrompt(question);
      lines.prompt();
      const hide = options.secret === true && terminal;
      muted = hide;
      const line = await nextLine();
      muted = false;
      // A muted terminal did not show the Enter either; a piped answer is not echoed at all, so end the line.
      if (hide || !terminal) output.write("\n");
      return line?.trim();
    },
    close() {
      lines.close();
    },
  };
}

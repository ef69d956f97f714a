/** Asks one question; undefined once stdin has ended. */
export type Ask = (question: string, options?: { readonly secret?: boolean }) => Promise<string | undefined>;

/** How the setup talks to its user: questions, and lines of its own. */
export interface SetupDialog {
  readonly ask: Ask;
  readonly say: (line: string) => void;
  /** A warning, on stderr: it must reach a user whose stdout goes to a file. */
  readonly warn: (line: string) => void;
}

/** The setup cannot go on: the message says why and what to do; the exit status is 2 for usage, 1 otherwise. */
export class SetupStopped extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export type Parsed<T> = { readonly value: T } | { readonly problem: string };

export interface Question<T> {
  readonly question: string;
  readonly parse: (text: string) => Parsed<T>;
  /** Taken on an empty answer, and when stdin ends (a piped script that answers only some questions). */
  readonly fallback?: T;
  /** What to give instead when stdin ends with no answer and there is no fallback (a flag, say). */
  readonly whenMissing: string;
  readonly secret?: boolean;
}

const TRIES = 3;

/** Asks until the answer parses (three tries: a script piping wrong answers must not loop forever). */
export async function answer<T>(dialog: SetupDialog, q: Question<T>): Promise<T> {
  for (let tries = 0; tries < TRIES; tries++) {
    const text = await dialog.ask(q.question, { secret: q.secret });
    if (text === undefined || text === "") {
      if (q.fallback !== undefined) return q.fallback;
      if (text === undefined)
        throw new SetupStopped(`Input ended before an answer to "${q.question.trim()}" ${q.whenMissing}`, 2);
      dialog.say("An answer is needed here.");
      continue;
    }
    const parsed = q.parse(text);
    if ("value" in parsed) return parsed.value;
    dialog.say(parsed.problem);
  }
  throw new SetupStopped(`No usable answer to "${q.question.trim()}" after ${TRIES} tries.`, 2);
}

/** A yes/no question; `fallback` is the answer to Enter and to the end of stdin. */
export function confirm(dialog: SetupDialog, question: string, fallback: boolean): Promise<boolean> {
  return answer<boolean>(dialog, {
    question: `${question} ${fallback ? "[Y/n]" : "[y/N]"} `,
    fallback,
    whenMissing: "",
    parse: (text) =>
      /^(y|yes)$/i.test(text)
        ? { value: true }
        : /^(n|no)$/i.test(text)
          ? { value: false }
          : { problem: "Answer y or n." },
  });
}

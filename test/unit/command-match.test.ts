import { strict as assert } from "node:assert";
import { patternMatches } from "../../agent/tools/safety/command-match.js";
import { normaliseCommand } from "../../agent/tools/safety/command-normalise.js";
import { DANGEROUS_PATTERNS, HARDLINE_PATTERNS } from "../../agent/tools/safety/command-patterns.js";
import { CASES, OPTIONS } from "../helpers/command-risk-cases.js";

describe("linear-time rule plans", () => {
  // The plans in command-match.ts must give the same answer as the plain regex. Inputs: the table's commands, their
  // normalised forms, and mutations of them (pieces joined, words repeated, separators and flags inserted).
  function* inputs(): Generator<string> {
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pieces = CASES.map(([command]) => normaliseCommand(command, OPTIONS));
    const extras = [" ", "\n", ";", " | ", " && ", "-f ", "-d ", "-x ", "-1 ", "'", '"', "/", "~/", "`", "$(", " -i "];
    for (const piece of pieces) yield piece;
    for (let n = 0; n < 3_000; n++) {
      let text = "";
      const parts = 1 + random(3);
      for (let p = 0; p < parts; p++) {
        const words = pieces[random(pieces.length)]!.split(" ");
        for (const word of words) {
          text += word + (random(4) === 0 ? extras[random(extras.length)]! : " ");
          if (random(10) === 0) text += `${word} `;
        }
        text += extras[random(extras.length)];
      }
      yield text;
    }
  }

  it("agree with the plain regexes", () => {
    const texts = [...inputs()];
    for (const pattern of [...HARDLINE_PATTERNS, ...DANGEROUS_PATTERNS]) {
      if (pattern.plan.kind === "regex") continue;
      for (const text of texts) {
        assert.equal(
          patternMatches(pattern, text),
          pattern.regex.test(text),
          `${pattern.description}: ${JSON.stringify(text)}`,
        );
      }
    }
  });
});

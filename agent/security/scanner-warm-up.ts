import { performance } from "node:perf_hooks";
import type { Variant } from "./python-regex.js";
import { detectorsFor, scanWhole } from "./threat-scanner.js";

/**
 * The first scan of a process compiles every regex it runs: V8 compiles a regex on its first run, separately for
 * one-byte (Latin-1) and two-byte strings, and straight to machine code when the string is over 1,000 characters long,
 * as context files are. With the rules of issue #23 that is ~100 ms for a 9 KB context file whose words and letters
 * are ASCII (python-regex.ts), and more for one that needs the Unicode variants (a few counterfeit-turn and coercion
 * regexes take 30-170 ms each to compile there, ~1.6 s in all, on the 2-core machine this was measured on). The
 * warm-up does that work ahead, while the editor is idle after `initialize`, as steps of one regex each, so that a
 * request arriving meanwhile waits for one step at most; the verdicts on files a session starts with are also
 * remembered across processes (scan-verdicts.ts).
 *
 * Order and pace, by what context files need: the ASCII variants on both kinds of string first (most files; an
 * arrow, a dash or an emoji makes a string two-byte), one step per macrotask (~270 ms in all, steps up to ~45 ms);
 * then the Unicode variants on one-byte strings (accented Latin text), in the background: from a second after
 * start-up, one step every UNICODE_STEP_GAP_MS or, after a long step, four times its length, so that the CPU stays
 * mostly idle and a request seldom meets a step. No step starts while a turn is in flight (`busy`).
 */
const WARM_ONE_BYTE = "warm up ".repeat(160);
const WARM_TWO_BYTE = "warm → up ".repeat(128);
const PLAN: ReadonlyArray<readonly [Variant, readonly string[]]> = [
  ["ascii", [WARM_ONE_BYTE, WARM_TWO_BYTE]],
  ["unicode", [WARM_ONE_BYTE]],
];
const UNICODE_START_DELAY_MS = 1_000;
const UNICODE_STEP_GAP_MS = 20;
/** The pace a server uses (tests go faster). */
export const SCANNER_WARM_UP_PACE: WarmUpPace = {
  unicodeStartDelayMs: UNICODE_START_DELAY_MS,
  unicodeStepGapMs: UNICODE_STEP_GAP_MS,
  longStepGapFactor: 4,
};

/**
 * The warm-up as a generator of small steps: each value says which variant the next step works on, and the `next()`
 * after it does that step (compiles one regex, or builds a detector's regexes the first time it is reached).
 */
export function* scannerWarmUpSteps(): Generator<Variant, void, undefined> {
  yield "ascii";
  // A first small scan builds the prefilter and runs the scanner's own code once.
  scanWhole("Warm up → the scanner before the first session.", "strict");
  for (const [variant, texts] of PLAN) {
    const done = new Set<RegExp>();
    for (const detector of detectorsFor("strict")) {
      for (const regex of detector.regexesFor(variant)) {
        if (done.has(regex)) continue;
        done.add(regex);
        yield variant;
        for (const text of texts) {
          regex.lastIndex = 0;
          regex.exec(text);
        }
        regex.lastIndex = 0;
      }
    }
  }
}

/** How fast the warm-up goes, and what it yields to. */
export interface WarmUpPace {
  readonly unicodeStartDelayMs: number;
  readonly unicodeStepGapMs: number;
  /** After a Unicode step, a gap this many times its length when that is longer than unicodeStepGapMs. */
  readonly longStepGapFactor?: number;
  /**
   * Whether a turn is in flight: no step runs then (checked again every BUSY_RECHECK_MS), so the warm-up uses idle
   * time only and never a turn's (a turn 1.5 s after start-up once took 48 ms instead of ~9, among the slices).
   */
  readonly busy?: () => boolean;
}

const BUSY_RECHECK_MS = 25;

function timed(step: () => void): number {
  const started = performance.now();
  step();
  return performance.now() - started;
}

/**
 * Every step, each in its own macrotask: the ASCII ones back to back (setImmediate: I/O that arrived meanwhile is
 * handled first), the Unicode ones later and spaced out, none while `busy()`. The timers are unref'd: a server on
 * its way out does not wait for them.
 */
export async function warmUpScannerInSlices(pace: WarmUpPace = SCANNER_WARM_UP_PACE): Promise<void> {
  const steps = scannerWarmUpSteps();
  let unicodeStarted = false;
  let lastStepMs = 0;
  for (let step = steps.next(); !step.done; lastStepMs = timed(() => (step = steps.next()))) {
    if (step.value === "ascii") await new Promise((resolve) => setImmediate(resolve));
    else {
      // After a long step (a Unicode regex of the counterfeit-turn family takes up to ~170 ms to compile on the
      // 2-core machine), a gap as many times longer: the CPU stays mostly idle, so a request seldom meets a step.
      const gap = Math.max(pace.unicodeStepGapMs, lastStepMs * (pace.longStepGapFactor ?? 0));
      const wait = unicodeStarted ? gap : pace.unicodeStartDelayMs;
      unicodeStarted = true;
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
    }
    while (pace.busy?.()) await new Promise((resolve) => setTimeout(resolve, BUSY_RECHECK_MS).unref());
  }
}

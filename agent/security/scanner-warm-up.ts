import type { Variant } from "./python-regex.js";
import { detectorsFor, scanWhole } from "./threat-scanner.js";

/**
 * The first scan of a process compiles every regex it runs: V8 compiles a regex on its first run, separately for
 * one-byte (Latin-1) and two-byte strings, and straight to machine code when the string is over 1,000 characters long,
 * as context files are. That is ~10 ms for a context file whose words and letters are ASCII (python-regex.ts), ~150 ms
 * for one that needs the Unicode variants. The warm-up does that work ahead, while the editor is idle after `initialize`, as
 * small steps of one regex each (a few milliseconds at most), so that a request arriving meanwhile waits for one step.
 *
 * Order and pace, by what context files need: the ASCII variants on both kinds of string first (most files; an
 * arrow, a dash or an emoji makes a string two-byte), one step per macrotask (~20 ms in all); then the Unicode
 * variants on one-byte strings (accented Latin text), as the scanner warmed them before it had ASCII variants, but in
 * the background: from a second after start-up, when an editor has sent its first session/new, one step every
 * UNICODE_STEP_GAP_MS, so that the ~150 ms they take in all slow neither that request nor the turns of a session that
 * has started (a turn against a fast model takes about 10 ms).
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
  /**
   * Whether a turn is in flight: no step runs then (checked again every BUSY_RECHECK_MS), so the warm-up uses idle
   * time only and never a turn's (a turn 1.5 s after start-up once took 48 ms instead of ~9, among the slices).
   */
  readonly busy?: () => boolean;
}

const BUSY_RECHECK_MS = 25;

/**
 * Every step, each in its own macrotask: the ASCII ones back to back (setImmediate: I/O that arrived meanwhile is
 * handled first), the Unicode ones later and spaced out, none while `busy()`. The timers are unref'd: a server on
 * its way out does not wait for them.
 */
export async function warmUpScannerInSlices(pace: WarmUpPace = SCANNER_WARM_UP_PACE): Promise<void> {
  const steps = scannerWarmUpSteps();
  let unicodeStarted = false;
  for (let step = steps.next(); !step.done; step = steps.next()) {
    if (step.value === "ascii") await new Promise((resolve) => setImmediate(resolve));
    else {
      const wait = unicodeStarted ? pace.unicodeStepGapMs : pace.unicodeStartDelayMs;
      unicodeStarted = true;
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
    }
    while (pace.busy?.()) await new Promise((resolve) => setTimeout(resolve, BUSY_RECHECK_MS).unref());
  }
}

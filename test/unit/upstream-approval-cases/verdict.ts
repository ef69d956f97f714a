/**
 * The verdict vocabulary of the upstream suites ported as data (see upstream-approval.test.ts), and the home they run
 * with.
 */
import type { AssessOptions } from "../../../agent/tools/safety/command-risk.js";

export const HOME = "/home/alice";
export const OPTIONS: AssessOptions = { home: HOME, hermesHome: `${HOME}/.hermes` };

/** hardline: never runs · not-hardline · flagged: asks or never runs · safe: runs unasked · flagged:<text>: flagged, description contains text. */
export type Verdict = "hardline" | "not-hardline" | "flagged" | "safe" | `flagged:${string}` | `hardline:${string}`;

export const cases = (verdict: Verdict, commands: readonly string[]): Array<readonly [string, Verdict]> =>
  commands.map((c) => [c, verdict] as const);

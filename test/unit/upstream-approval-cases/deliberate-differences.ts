import type { AssessOptions } from "../../../agent/tools/safety/command-risk.js";
import { OPTIONS, type Verdict } from "./verdict.js";

/**
 * Cases where we decide otherwise on purpose: [command, upstream's verdict, ours, why]. Ours is asserted (and kept
 * out of the suites in hardline-blocklist.ts and approval.ts, which hold upstream's verdicts).
 */
export const DELIBERATE_DIFFERENCES: ReadonlyArray<readonly [string, Verdict, Verdict, string, AssessOptions?]> = [
  [
    'launchctl kick"start" -k gui/501/ai.hermes.update-checker',
    "safe",
    "flagged",
    "our launchd rule (upstream's BASELINE) covers every ai.hermes.* label; upstream later narrowed it to the gateway. " +
      "A question for another Hermes service is cheap; the quote splice itself is now read as `kickstart`.",
  ],
  [
    "git branch -d feature",
    "flagged",
    "safe",
    "hermes-behaviour.md upstream gap 2: upstream's BASELINE lower-cased the command, so the merged-only `-d` read as the force delete `-D`.",
  ],
  [
    "echo pw | sudo -S id",
    "hardline",
    "flagged",
    "with SUDO_PASSWORD configured our gate keeps upstream's BASELINE exemption (§6.3 step 3: the guard is for guessing a " +
      "password nobody gave); sudo itself still asks as a privilege flag. Upstream now blocks it whatever the environment.",
    { ...OPTIONS, sudoPasswordSet: true },
  ],
];

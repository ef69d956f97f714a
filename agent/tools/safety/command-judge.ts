/**
 * `approvals.mode: smart`: a second model reviews a flagged command before the user is asked (hermes-behaviour.md
 * §6.3 item 9). APPROVE runs this one command (nothing is remembered); DENY blocks it, or lets a present user
 * override it once; ESCALATE asks the user as manual mode does.
 */
export type JudgeVerdict = "approve" | "deny" | "escalate";

export interface CommandJudge {
  /**
   * Never throws and never hangs past its own deadline: a failure, a timeout or any answer other than a clear
   * APPROVE or DENY is "escalate", so a broken judge can only ever hand the decision back to the user.
   */
  judge(command: string, description: string, signal: AbortSignal): Promise<JudgeVerdict>;
}

/** Upstream reads the answer strictly: the whole reply, trimmed and upper-cased, must be the one word. */
export function verdictOf(answer: string): JudgeVerdict {
  const word = answer.trim().toUpperCase();
  if (word === "APPROVE") return "approve";
  if (word === "DENY") return "deny";
  return "escalate";
}

/** Upstream's words when the judge says DENY and no one is there to overrule it. */
export function smartDenyMessage(description: string): string {
  return `BLOCKED by smart approval: ${description}. The command was assessed as genuinely dangerous. Do NOT retry.`;
}

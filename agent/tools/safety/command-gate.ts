import { homedir } from "node:os";
import { appendToCommandAllowlist } from "../../config/allowlist-writer.js";
import type { ToolContext } from "../tool.js";
import { smartDenyMessage } from "./command-judge.js";
import { isReadOnlyCommand } from "./command-readonly.js";
import {
  analyseCommand,
  assessCommand,
  denyRuleMessage,
  hardlineMessage,
  isCompoundCommand,
  matchesCommandGlob,
  OUTSIDE_WORKSPACE_DESCRIPTION,
  SUDO_STDIN_DESCRIPTION,
  SUDO_STDIN_MESSAGE,
  USER_DENIED_MESSAGE,
} from "./command-risk.js";

export type GateDecision =
  | { readonly allowed: true; readonly note?: string }
  | { readonly allowed: false; readonly message: string };

/**
 * Upstream's order of command guards (hermes-behaviour.md §6.3): hardline commands never run in any mode; then
 * the sudo -S guard; the user's `approvals.deny` globs; `approvals.mode: off`; the permanent allowlist (exact text,
 * globs, or approval keys, never for compound commands); then dangerous commands ask the user, unless already
 * approved for this session. In `approvals.mode: smart` the session's judge (an auxiliary LLM) sees the command
 * first: APPROVE runs it (this once, nothing remembered), DENY blocks it unless a present user overrides it for
 * this one run, ESCALATE asks as manual mode does. Hardline, deny-glob and read-only blocks come before the judge,
 * so it can never let those through. Without a judge (a front end that has none) smart behaves as manual.
 *
 * `where.cwd` is the directory the command runs in (the terminal's workdir, a background process's folder): relative
 * paths are resolved from it to decide what lies outside the workspace. Read-only mode is strict only when the
 * session's commands are not in an OS sandbox (`ctx.state.sandboxed`, set by the terminal before it calls here).
 */
export async function gateCommand(
  command: string,
  ctx: ToolContext,
  where: { readonly cwd?: string } = {},
): Promise<GateDecision> {
  const settings = ctx.state.settings;
  const risk = assessCommand(command, {
    home: homedir(),
    hermesHome: ctx.home,
    sudoPasswordSet: Boolean(process.env.SUDO_PASSWORD),
    workspaceRoot: ctx.workspace.root,
    ...(where.cwd ? { cwd: where.cwd } : {}),
  });
  if (risk.level === "hardline") {
    return {
      allowed: false,
      message: risk.description === SUDO_STDIN_DESCRIPTION ? SUDO_STDIN_MESSAGE : hardlineMessage(risk.description),
    };
  }
  // Deny globs see the command as written and as normalised (quotes, escapes, `bash -c` payloads), as upstream.
  const forms = [command, ...analyseCommand(command, { home: homedir(), hermesHome: ctx.home }).variants];
  const denied = settings.denyGlobs.find((pattern) => forms.some((form) => matchesCommandGlob(form, pattern)));
  if (denied) return { allowed: false, message: denyRuleMessage(denied) };
  const mode = ctx.state.mode;
  // Inside a sandbox the filesystem itself is read-only in this mode, so a command the parser cannot show to be a
  // read runs contained; without one, the parser is the only wall.
  if (mode === "read_only" && !ctx.state.sandboxed && !isReadOnlyCommand(command)) {
    return {
      allowed: false,
      message:
        "BLOCKED: this session is in read-only mode, so only commands without side effects run (ls, cat, grep, git status/log/diff, …). Describe what you would run instead; the user can switch modes.",
    };
  }
  if (settings.approvalsMode === "off" || mode === "yolo" || risk.level === "safe") return { allowed: true };
  // A change outside the workspace that no other rule flags is the sandbox's to stop: inside one it fails on the
  // walls and the terminal asks "run outside the sandbox?" then; asking here as well would ask twice.
  if (risk.description === OUTSIDE_WORKSPACE_DESCRIPTION && ctx.state.sandboxed) return { allowed: true };

  const key = risk.description;
  // A command that changes files outside the workspace asks every time: no session or permanent approval covers it
  // (an approval given for `rm -rf node_modules` must not carry over to `rm -rf ~/projects`).
  const remembered = !(risk.level === "dangerous" && risk.outside && risk.outside.length > 0);
  const compound = isCompoundCommand(command);
  const allowlisted =
    remembered &&
    settings.commandAllowlist.some((entry) => entry === key || (!compound && matchesCommandGlob(command, entry)));
  if (allowlisted || (remembered && ctx.state.approvedForSession.has(key))) return { allowed: true };

  let smartDenied = false;
  if (settings.approvalsMode === "smart" && ctx.judge) {
    const verdict = await ctx.judge.judge(command, key, ctx.signal);
    if (verdict === "approve") return { allowed: true };
    if (verdict === "deny") {
      if (!ctx.approver.canAsk) return { allowed: false, message: smartDenyMessage(key) };
      smartDenied = true;
    }
  }

  if (!ctx.approver.canAsk) {
    return {
      allowed: false,
      message: `BLOCKED: Command flagged as dangerous (${key}) and no one is present to approve it in this front end. Find an alternative approach that avoids this command, or ask the user to run it themselves.`,
    };
  }
  const answer = await ctx.approver.approveCommand(
    {
      toolCallId: ctx.toolCallId,
      command,
      description: key,
      allowPermanent: !smartDenied && remembered,
      allowSession: remembered,
      ...(smartDenied ? { smartDenied } : {}),
    },
    ctx.signal,
  );
  // Overriding the judge's DENY is good for this one run whatever the client answered (upstream: an older client
  // may still send "session" or "always"), so nothing is remembered.
  if ((smartDenied || !remembered) && answer !== "deny") return { allowed: true };
  switch (answer) {
    case "deny":
      return { allowed: false, message: USER_DENIED_MESSAGE };
    case "once":
      return { allowed: true };
    case "session":
      ctx.state.approvedForSession.add(key);
      return { allowed: true };
    case "always":
      // Upstream's semantics: the approval key (the rule's description) is saved, not the command; the option's
      // label says so ("Always allow recursive delete").
      ctx.state.approvedForSession.add(key);
      try {
        appendToCommandAllowlist(settings.configPath, key);
        return { allowed: true };
      } catch (error) {
        return {
          allowed: true,
          note: `(Approved for this session; saving to command_allowlist failed: ${(error as Error).message})`,
        };
      }
  }
}

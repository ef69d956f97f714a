import type { ToolContext, ToolResult } from "../tool.js";
import { browserFailure } from "./browser-tool-support.js";

/*
 * Read-only mode promises that nothing changes without a yes. Looking at a page (navigate, snapshot, scroll, back,
 * images, console output, a screenshot) is reading, as web_extract is. Acting on it is not: a click, typed text, a key
 * press or JavaScript run in the page can submit a form, delete a record in the user's own app on localhost, or
 * post to a server. In read-only mode those ask first (once, or for the rest of the session), and are refused when
 * there is no one to ask, as MCP tools not marked read-only are (mcp/mcp-read-only.ts).
 */

const SESSION_KEY = "browser actions in read-only mode";

/** Undefined when the action may go ahead; the refusal to return otherwise. */
export async function readOnlyRefusal(ctx: ToolContext, action: string): Promise<ToolResult | undefined> {
  if (ctx.state.mode !== "read_only" || ctx.state.approvedForSession.has(SESSION_KEY)) return undefined;
  const refusal = (why: string) =>
    browserFailure(
      `Read-only mode: ${action} acts on the page and may change things (a form sent, a record deleted), and ${why}. ` +
        "Do not retry it in this mode; tell the user, who can allow it or switch the session's mode.",
    );
  if (!ctx.approver.canAsk) return refusal("there is no one to ask for approval here");
  const answer = await ctx.approver.approveCommand(
    {
      toolCallId: ctx.toolCallId,
      command: action,
      description: "Read-only mode: browser actions may change things",
      // "Always" is saved to command_allowlist, which holds shell command patterns: not offered.
      allowPermanent: false,
    },
    ctx.signal,
  );
  if (answer === "deny") return refusal("the user did not allow it");
  if (answer === "session") ctx.state.approvedForSession.add(SESSION_KEY);
  return undefined;
}

import { type ToolContext, type ToolResult, toolError } from "../tools/tool.js";
import type { McpToolInfo } from "./mcp-tool.js";

/**
 * Read-only mode promises that nothing changes without a yes, and an MCP tool can do anything its server does (write
 * files, open issues, deploy). We cannot see inside it, so in read-only mode a call asks first, unless the server
 * annotates the tool `readOnlyHint: true`. The MCP spec calls annotations hints to trust only from trusted servers;
 * these are servers the user configured and runs with their own rights, so their word on their own tools is as
 * trusted as the rest of what they do. Without anyone to ask, the call is refused.
 */
export async function readOnlyRefusal(
  call: {
    readonly server: string;
    readonly tool: McpToolInfo;
    readonly name: string;
    readonly args: Readonly<Record<string, unknown>>;
  },
  ctx: ToolContext,
): Promise<ToolResult | undefined> {
  if (ctx.state.mode !== "read_only" || call.tool.annotations?.readOnlyHint === true) return undefined;
  const sessionKey = `mcp tool ${call.name} in read-only mode`;
  if (ctx.state.approvedForSession.has(sessionKey)) return undefined;
  const refusal = (why: string) =>
    toolError(
      `Read-only mode: ${call.name} (tool '${call.tool.name}' of MCP server '${call.server}') is not marked read-only by its server, so it may change things, and ${why}. ` +
        "Do not retry it in this mode; tell the user, who can allow it or switch the session's mode.",
    );
  if (!ctx.approver.canAsk) return refusal("there is no one to ask for approval here");
  const answer = await ctx.approver.approveCommand(
    {
      toolCallId: ctx.toolCallId,
      command: `${call.name} ${JSON.stringify(call.args)}`,
      description: `Read-only mode: MCP tool '${call.tool.name}' of server '${call.server}' may change things`,
      // An "always" would be saved to command_allowlist, which holds shell command patterns: not offered.
      allowPermanent: false,
    },
    ctx.signal,
  );
  if (answer === "deny") return refusal("the user did not allow it");
  if (answer === "session") ctx.state.approvedForSession.add(sessionKey);
  return undefined;
}

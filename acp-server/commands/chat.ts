import * as acp from "@agentclientprotocol/sdk";
import { createAgentApp } from "../rpc/agent-app.js";
import type { Logger } from "../rpc/log.js";
import { createServerContext } from "../rpc/server-context.js";
import { HERMES_ACP_VERSION } from "../rpc/version.js";
import { askOnTerminal } from "./terminal-permission.js";

export interface ChatIo {
  readonly writeReply: (text: string) => void;
  readonly writeNote: (text: string) => void;
}

/**
 * `hermes-editor chat "prompt"`: one turn in the current directory, through the same ACP server code connected
 * in-process to a minimal client, printing the reply as it streams. Ctrl-C cancels the turn. Returns the exit
 * status: 0 for a completed turn, 1 when the turn could not run or the model failed.
 */
export async function runChat(promptText: string, cwd: string, log: Logger, io: ChatIo): Promise<number> {
  const ctx = createServerContext(process.env, log);
  let failed = false;
  let endedWithNewline = true;
  const client = acp
    .client({ name: "hermes-editor-chat" })
    .onRequest("session/request_permission", ({ params }) => askOnTerminal(params, io.writeNote))
    .onNotification("session/update", ({ params }) => {
      const update = params.update;
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
        if ((update._meta as { hermes?: { error?: boolean } } | undefined)?.hermes?.error) failed = true;
        io.writeReply(update.content.text);
        endedWithNewline = update.content.text.endsWith("\n");
      } else if (update.sessionUpdate === "agent_thought_chunk" && update.content.type === "text") {
        io.writeNote(update.content.text);
      } else if (update.sessionUpdate === "tool_call") {
        io.writeNote(`\n[${update.title}]\n`);
      }
    });
  try {
    const stopReason = await client.connectWith(createAgentApp(ctx), async (agent) => {
      await agent.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: "hermes-editor-chat", version: HERMES_ACP_VERSION },
      });
      const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
      // One-shot runs edit the project without a question per file (dangerous commands still ask on a terminal).
      await agent.request("session/set_config_option", { sessionId, configId: "mode", value: "accept_edits" } as never);
      const onInterrupt = () => void agent.notify("session/cancel", { sessionId });
      process.once("SIGINT", onInterrupt);
      try {
        const response = await agent.request("session/prompt", {
          sessionId,
          prompt: [{ type: "text", text: promptText }],
        });
        return response.stopReason;
      } finally {
        process.removeListener("SIGINT", onInterrupt);
      }
    });
    await ctx.stores.compactAll();
    if (!endedWithNewline) io.writeReply("\n");
    if (stopReason === "cancelled") io.writeNote("[cancelled]\n");
    return failed ? 1 : 0;
  } catch (error) {
    io.writeNote(`hermes-editor: ${(error as Error).message}\n`);
    return 1;
  }
}

import { RequestError, type AgentContext, type CancelNotification, type PromptRequest, type PromptResponse, type SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../agent/loop/events.js";
import { eventToUpdate } from "../event-to-update.js";
import { promptToText } from "../prompt-text.js";
import type { ServerContext } from "../server-context.js";
import { configOptionsOf } from "../session-config.js";
import { availableCommands, runSlashCommand } from "../slash-commands.js";
import { buildSkillOrUserTurn } from "../skill-commands.js";
import { ToolProgressRelay } from "../tool-progress.js";
import { delegateStartText } from "../delegation-view.js";

/**
 * Runs one turn and streams it as `session/update`s. Updates are sent in order; the response waits until every
 * update of the turn has been written, so nothing arrives after the stop reason.
 */
export async function handlePrompt(
  ctx: ServerContext,
  params: PromptRequest,
  client: AgentContext,
  requestSignal: AbortSignal,
): Promise<PromptResponse> {
  const session = ctx.sessions.get(params.sessionId);
  if (!session) throw RequestError.sessionNotFound(params.sessionId);
  // `$/cancel_request` on the prompt itself (or the connection closing) cancels like `session/cancel`.
  const onAbort = () => session.cancel();
  requestSignal.addEventListener("abort", onAbort, { once: true });
  let delivered: Promise<unknown> = Promise.resolve();
  const send = (update: SessionUpdate) => {
    delivered = delivered.then(() =>
      client.notify("session/update", { sessionId: session.id, update: session.terminals.embed(update) }).catch((error: unknown) => {
        ctx.log.debug(`session/update not delivered: ${(error as Error).message}`);
      }),
    );
  };
  const progress = new ToolProgressRelay(send);
  // A command running in an editor terminal is shown in its tool call, in order with this turn's other updates.
  const detachTerminals = session.terminals.attach(async (update) => {
    send(update);
    await delivered;
  });
  const emit = (event: AgentEvent) => {
    if (event.type === "tool_start" && event.name === "terminal") progress.started(event.callId, `$ ${String(event.args?.command ?? "")}`);
    if (event.type === "tool_start" && event.name === "delegate_task") progress.started(event.callId, delegateStartText(event.args));
    if (event.type === "tool_progress") return progress.progress(event.callId, event.text);
    if (event.type === "tool_end") progress.ended(event.callId);
    if (event.type === "usage") {
      session.recordUsage(event.usage);
      // Context fill after each model call: what the request used, against the model's window (when known).
      const size = session.ready.ok ? session.ready.conversation.runtime.contextLength : undefined;
      if (size) send({ sessionUpdate: "usage_update", used: event.usage.inputTokens + event.usage.outputTokens, size });
      return;
    }
    const update = eventToUpdate(event, session.cwd);
    if (update) send(update);
  };
  try {
    await session.announced;
    for (const notice of session.takeNotices()) emit({ type: "notice", title: notice.title, message: notice.description });
    const text = promptToText(params.prompt);
    const commandReply = params.prompt.every((b) => b.type === "text") ? runSlashCommand(session, text) : undefined;
    if (commandReply !== undefined) {
      emit({ type: "text_delta", text: await commandReply });
      if (session.takeConfigChanged()) send({ sessionUpdate: "config_option_update", configOptions: configOptionsOf(session) });
      await delivered;
      return { stopReason: "end_turn" };
    }
    // `/skill-name …` becomes the skill's invocation message; a skill that cannot be loaded is answered here.
    const turn = await buildSkillOrUserTurn(session, params.prompt, availableCommands(), requestSignal);
    if ("reply" in turn) {
      emit({ type: "text_delta", text: turn.reply });
      await delivered;
      return { stopReason: "end_turn" };
    }
    for (const warning of turn.warnings) emit({ type: "notice", title: "Attachments not added", message: warning });
    if (turn.unseenImagesNotice) emit({ type: "notice", title: "Images not shown to the model", message: turn.unseenImagesNotice });
    // A prompt that was only images, all refused, leaves nothing to ask: the warnings above are the answer.
    if (!turn.text.trim() && turn.images.length === 0 && turn.warnings.length > 0) {
      await delivered;
      return { stopReason: "end_turn" };
    }
    const stopReason = await session.prompt(turn.text, emit, text, turn.images);
    const title = session.takeNewTitle();
    if (title) send({ sessionUpdate: "session_info_update", title, updatedAt: new Date().toISOString() });
    await delivered;
    return { stopReason };
  } finally {
    detachTerminals();
    requestSignal.removeEventListener("abort", onAbort);
  }
}

export function handleCancel(ctx: ServerContext, params: CancelNotification): void {
  ctx.sessions.get(params.sessionId)?.cancel();
}

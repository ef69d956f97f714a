import {
  type AgentContext,
  type CancelNotification,
  type ContentBlock,
  type PromptRequest,
  type PromptResponse,
  RequestError,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { type AgentEvent, describeToolCall, type StopReason } from "../../agent/index.js";
import type { ServerContext } from "../rpc/server-context.js";
import { promptToText } from "../turn/prompt-text.js";
import { turnCheckpointMeta } from "../turn/rollback-command.js";
import { buildSkillOrUserTurn, refreshSkillCommands } from "../turn/skill-commands.js";
import { availableCommands, isImmediateCommand, runSlashCommand } from "../turn/slash-commands.js";
import { isRetry, steerText, takeLastExchangeForRetry } from "../turn/turn-control.js";
import { eventToUpdate } from "../updates/event-to-update.js";
import { sessionEventUpdate } from "../updates/session-event-update.js";
import { ToolProgressRelay } from "../updates/tool-progress.js";

/** Tools whose success may have changed the skills: skill_manage, and delegate_task (a subagent may have run it). */
const SKILL_CHANGING_TOOLS = new Set(["skill_manage", "delegate_task"]);

/**
 * Runs one turn and streams it as `session/update`s. Updates are sent in order; the response waits until every
 * update of the turn has been written, so nothing arrives after the stop reason. A prompt sent while another of the
 * session runs waits for it to answer first (prompt-queue.ts says why).
 */
export async function handlePrompt(
  ctx: ServerContext,
  params: PromptRequest,
  client: AgentContext,
  requestSignal: AbortSignal,
): Promise<PromptResponse> {
  const session = ctx.sessions.get(params.sessionId);
  if (!session) throw RequestError.sessionNotFound(params.sessionId);
  const textOnly = params.prompt.every((b) => b.type === "text");
  let text = promptToText(params.prompt);
  let blocks: readonly ContentBlock[] = params.prompt;
  // `/steer` with no turn running or waiting is an ordinary prompt of its words (upstream rewrites it so).
  const steer = textOnly ? steerText(text) : undefined;
  if (steer && !session.prompts.busy) {
    text = steer;
    blocks = [{ type: "text", text: steer }];
  }
  // Everything waits its turn except commands meant for the running turn (/queue).
  const slot = textOnly && isImmediateCommand(text) ? undefined : session.prompts.join();
  // `$/cancel_request` on the prompt itself (or the connection closing) cancels it like `session/cancel` when it is
  // running; a prompt still waiting just withdraws, leaving the running one alone.
  const onAbort = () => {
    if (slot?.active) session.cancel();
    slot?.cancel();
  };
  requestSignal.addEventListener("abort", onAbort, { once: true });
  // A cancel that arrived while the handler was still being loaded has already fired: an abort listener added now
  // would never run, and the prompt would wait behind the running turn that the client meant to leave alone.
  if (requestSignal.aborted) onAbort();
  const signal = slot ? AbortSignal.any([requestSignal, slot.signal]) : requestSignal;
  let delivered: Promise<unknown> = Promise.resolve();
  const send = (update: SessionUpdate) => {
    delivered = delivered.then(() =>
      client
        .notify("session/update", { sessionId: session.id, update: session.terminals.embed(update) })
        .catch((error: unknown) => {
          ctx.log.debug(`session/update not delivered: ${(error as Error).message}`);
        }),
    );
  };
  const progress = new ToolProgressRelay(send);
  let detachTerminals = () => {};
  let stopListening = () => {};
  const emit = (event: AgentEvent) => {
    if (event.type === "tool_start") {
      // Tools that show text while they run (a command, a subagent's goals) get their live output under it.
      const running = describeToolCall(event.name, event.args, session.cwd).runningText;
      if (running !== undefined) progress.started(event.callId, running);
    }
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
    // A skill created, renamed or deleted is a /command (or no longer one) at once, without a restart.
    if (event.type === "tool_end" && SKILL_CHANGING_TOOLS.has(event.name) && !event.result.isError) {
      const commands = refreshSkillCommands(session, availableCommands());
      if (commands) send({ sessionUpdate: "available_commands_update", availableCommands: commands });
    }
  };
  /** One prompt: a command's reply, or a model turn (`turn` says whether the model was called). */
  const answer = async (
    blocks: readonly ContentBlock[],
    text: string,
    textOnly: boolean,
  ): Promise<{ stopReason: StopReason; turn: boolean }> => {
    if (textOnly && isRetry(text)) return retry();
    const commandReply = textOnly ? runSlashCommand(session, text, { send, signal }) : undefined;
    if (commandReply !== undefined) {
      emit({ type: "text_delta", text: await commandReply });
      return { stopReason: "end_turn", turn: false };
    }
    // `/skill-name …` becomes the skill's invocation message; a skill that cannot be loaded is answered here.
    const turn = await buildSkillOrUserTurn(session, blocks, availableCommands(), signal);
    if ("reply" in turn) {
      emit({ type: "text_delta", text: turn.reply });
      return { stopReason: "end_turn", turn: false };
    }
    for (const warning of turn.warnings) emit({ type: "notice", title: "Attachments not added", message: warning });
    if (turn.largeAttachmentsNotice)
      emit({ type: "notice", title: "Large attachments", message: turn.largeAttachmentsNotice });
    if (turn.unseenImagesNotice)
      emit({ type: "notice", title: "Images not shown to the model", message: turn.unseenImagesNotice });
    // A prompt that was only images, all refused, leaves nothing to ask: the warnings above are the answer.
    if (!turn.text.trim() && turn.images.length === 0 && turn.warnings.length > 0)
      return { stopReason: "end_turn", turn: false };
    // Cancelled while its message was being built: the model is not called.
    if (slot?.signal.aborted) return { stopReason: "cancelled", turn: false };
    const stopReason = await session.prompt(turn.message, emit, text, turn.images);
    return { stopReason, turn: true };
  };
  /** `/retry`: the last exchange leaves the conversation and its user message runs again, as the model got it. */
  const retry = async (): Promise<{ stopReason: StopReason; turn: boolean }> => {
    const undone = await takeLastExchangeForRetry(session);
    if (!undone) {
      emit({ type: "text_delta", text: "Nothing to retry: the conversation is empty." });
      return { stopReason: "end_turn", turn: false };
    }
    const { content, images } = undone.firstMessage;
    return { stopReason: await session.prompt(content, emit, "", images ?? []), turn: true };
  };
  try {
    if (!slot && session.prompts.busy)
      return await answerAside(ctx, text, send, () => delivered, runSlashCommand(session, text, { send, signal }));
    if (slot && !(await slot.turn)) return { stopReason: "cancelled" };
    // A command running in an editor terminal is shown in its tool call, in order with this turn's other updates.
    // Only the prompt whose turn it is takes the session's terminal channel (never one waiting, nor /queue).
    if (slot) {
      detachTerminals = session.terminals.attach(async (update) => {
        send(update);
        await delivered;
      });
    }
    await session.announced;
    // The session's own events for the length of this request: the notices held for the top of this reply, the
    // title a turn gives, a model switched with /model (session-events.ts).
    stopListening = session.events.listen((event) => send(sessionEventUpdate(event, session, false)));
    const first = await answer(blocks, text, textOnly);
    let stopReason = first.stopReason;
    // The workspace as it was before this turn, so any client can offer to restore it (`/rollback` does it here).
    const checkpoint = first.turn ? await turnCheckpointMeta(session) : undefined;
    // After a model turn, the prompts lined up with /queue run in this request, each shown as the user's message.
    // Pulled, not heard as events: this request drains the queue one text per turn, at its own pace.
    for (
      let next = first.turn ? session.prompts.takeQueuedText() : undefined;
      next !== undefined && stopReason !== "cancelled";
      next = session.prompts.takeQueuedText()
    ) {
      send({ sessionUpdate: "user_message_chunk", content: { type: "text", text: next } });
      ({ stopReason } = await answer([{ type: "text", text: next }], next, true));
    }
    await delivered;
    return { stopReason, ...(checkpoint ? { _meta: { hermes: { checkpoint } } } : {}) };
  } finally {
    // The next prompt starts after this response is on the wire (the SDK writes it once this returns), so none of
    // its updates can arrive before the stop reason of this one.
    if (slot) {
      slot.answered = true;
      setImmediate(() => slot.leave());
    }
    detachTerminals();
    stopListening();
    requestSignal.removeEventListener("abort", onAbort);
  }
}

/**
 * A command answered at once (/queue) while another prompt's turn streams. Its reply is no `agent_message_chunk`:
 * a chunk carries no turn of its own, so clients append it to the reply being streamed ("Queued for the next
 * turn" in the middle of the model's answer). Holding it until that turn ends would hold this response too, and
 * /queue exists to answer at once. So the reply is in the response (`_meta.hermes.reply`, for our clients) and,
 * for clients that take them, a `notice`, which is shown apart from the conversation.
 */
async function answerAside(
  ctx: ServerContext,
  text: string,
  send: (update: SessionUpdate) => void,
  delivered: () => Promise<unknown>,
  commandReply: string | Promise<string> | undefined,
): Promise<PromptResponse> {
  const reply = await commandReply;
  if (reply === undefined) throw RequestError.internalError(undefined, `not an immediate command: ${text}`);
  if (ctx.clientCapabilities?.session?.notices) {
    send({ sessionUpdate: "notice", severity: "info", title: text.trim().split(/\s/)[0]!, description: reply });
    await delivered();
  }
  return { stopReason: "end_turn", _meta: { hermes: { reply } } };
}

/** `session/cancel`: the running turn and every prompt of the session still waiting (prompt-queue.ts). */
export function handleCancel(ctx: ServerContext, params: CancelNotification): void {
  const session = ctx.sessions.get(params.sessionId);
  session?.prompts.cancelAll();
  session?.cancel();
}

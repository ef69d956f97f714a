import { strict as assert } from "node:assert";
import type { ScriptedReply } from "../fixtures/scripted-llm.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

type Json = Record<string, unknown>;

describe("hermes-acp: a prompt sent while a turn runs", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let harness: AcpHarness;
  let sessionId: string;
  /** Lets the model's first reply go (it is held until then). */
  let releaseFirst: () => void;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    // The first model call waits for the test; later ones answer from the queue.
    llm.respondWith(async (request): Promise<ScriptedReply | undefined> => {
      if (llm.requests.indexOf(request) !== 0) return undefined;
      await held;
      return { kind: "text", chunks: ["reply one"] };
    });
    harness = AcpHarness.spawn(
      serverEnv(hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "", 0), DISCARDED_HOME_ENV),
    );
    // A client that shows notices (a /queue sent while a turn streams is confirmed with one).
    await harness.initialize({ session: { notices: {} } });
    sessionId = await harness.newSession(temp.make("hermes-ws-"));
  });

  afterEach(async () => {
    releaseFirst();
    await harness.close();
    await llm.close();
    assert.deepEqual(harness.violations, []);
    temp.cleanup();
  });

  const prompt = (text: string) =>
    harness.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  const settled = <T>(promise: Promise<T>) => {
    const state = { done: false };
    void promise.then(
      () => (state.done = true),
      () => (state.done = true),
    );
    return state;
  };
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Index of the stdout line that is the response to the `n`-th session/prompt (0-based). */
  const responseLine = (n: number) => {
    const ids = harness.stdoutLines
      .map((l) => JSON.parse(l) as Json)
      .filter((m) => m.method === undefined && (m.result as Json | undefined)?.stopReason !== undefined);
    return harness.stdoutLines.indexOf(JSON.stringify(ids[n]));
  };
  const lineWith = (text: string) => harness.stdoutLines.findIndex((l) => l.includes(text));

  it("waits for the running turn, then runs with its own updates and its own response", async () => {
    llm.enqueue({ kind: "text", chunks: ["reply two"] });
    const first = prompt("first question");
    await llm.waitForRequests(1);
    const second = prompt("second question");
    const secondState = settled(second);
    await pause(300);
    assert.equal(llm.requests.length, 1, "the second prompt did not reach the model while the first ran");
    assert.equal(secondState.done, false, "the second prompt has not answered");

    releaseFirst();
    assert.equal((await first).stopReason, "end_turn");
    assert.equal((await second).stopReason, "end_turn");
    assert.equal(harness.replyText(sessionId), "reply onereply two");
    const messages = llm.requests[1]!.body.messages.filter((m) => m.role !== "system").map(
      (m) => `${m.role}: ${m.content}`,
    );
    assert.deepEqual(
      messages,
      ["user: first question", "assistant: reply one", "user: second question"],
      "the second turn follows the first in the history",
    );
    // On the wire: the first response comes before any update of the second turn.
    assert.ok(responseLine(0) >= 0 && responseLine(0) < lineWith("reply two"), harness.stdoutLines.join("\n"));
  });

  it("session/cancel cancels the running turn and the waiting prompt; a later prompt runs", async () => {
    const first = prompt("long job");
    await llm.waitForRequests(1);
    const second = prompt("queued job");
    await pause(100);
    await harness.agent.notify("session/cancel", { sessionId });
    assert.equal((await first).stopReason, "cancelled");
    assert.equal((await second).stopReason, "cancelled");
    assert.equal(llm.requests.length, 1, "the waiting prompt never reached the model");

    llm.enqueue({ kind: "text", chunks: ["fresh"] });
    assert.equal((await prompt("after the cancel")).stopReason, "end_turn");
    assert.equal(llm.requests.at(-1)!.body.messages.at(-1)!.content, "after the cancel");
  });

  it("cancelling the waiting request withdraws only it", async () => {
    const first = prompt("keep going");
    await llm.waitForRequests(1);
    const withdraw = new AbortController();
    const second = harness.agent.request(
      "session/prompt",
      { sessionId, prompt: [{ type: "text", text: "never mind" }] },
      { cancellationSignal: withdraw.signal },
    );
    await pause(100);
    withdraw.abort();
    assert.equal((await second).stopReason, "cancelled");
    releaseFirst();
    assert.equal((await first).stopReason, "end_turn", "the running turn went on");
    assert.equal(harness.replyText(sessionId), "reply one");
    assert.equal(llm.requests.length, 1);
  });

  it("/queue answers at once and its prompt runs after the turn, shown as the user's message", async () => {
    llm.enqueue({ kind: "text", chunks: ["reply two"] });
    const first = prompt("first question");
    await llm.waitForRequests(1);
    const queued = await prompt("/queue and then this");
    assert.equal(queued.stopReason, "end_turn", "/queue does not wait for the turn");
    // Not a message chunk: clients would append it to the reply the running turn streams.
    assert.deepEqual(queued._meta, { hermes: { reply: "Queued for the next turn. (1 queued)" } });
    const notices = harness.updates.filter((u) => u.update.sessionUpdate === "notice").map((u) => u.update);
    assert.deepEqual(notices, [
      {
        sessionUpdate: "notice",
        severity: "info",
        title: "/queue",
        description: "Queued for the next turn. (1 queued)",
      },
    ]);

    releaseFirst();
    assert.equal((await first).stopReason, "end_turn");
    assert.ok(
      !harness.replyText(sessionId).includes("Queued"),
      "the running turn's reply holds only the model's words",
    );
    assert.equal(llm.requests[1]!.body.messages.at(-1)!.content, "and then this");
    const echoed = harness.updates
      .filter((u) => u.update.sessionUpdate === "user_message_chunk")
      .map((u) => (u.update as { content: { text: string } }).content.text);
    assert.deepEqual(echoed, ["and then this"]);
    assert.ok(
      lineWith('"user_message_chunk"') > lineWith("reply one") &&
        lineWith('"user_message_chunk"') < lineWith("reply two"),
    );
    assert.equal((await prompt("/queue")).stopReason, "end_turn");
    assert.match(harness.replyText(sessionId), /Usage: \/queue <prompt>$/);
  });
});

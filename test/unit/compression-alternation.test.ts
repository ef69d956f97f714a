import { strict as assert } from "node:assert";
import * as z from "zod/v4";
import type { CompressionSettings } from "../../agent/compress/compression-settings.js";
import { TODO_SNAPSHOT_HEADER } from "../../agent/compress/todo-snapshot.js";
import { BUDGET_EXHAUSTED_NOTE, Conversation } from "../../agent/loop/conversation.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import { defineTool } from "../../agent/tools/define-tool.js";
import { todoTool } from "../../agent/tools/session/todo-tool.js";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { scriptedRuntime } from "../helpers/scripted-runtime.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

const SNAPSHOT = `${TODO_SNAPSHOT_HEADER}\n- [>] 2. Fix the bug (in_progress)`;

/** What strict-alternation chat templates (Mistral, Gemma on vLLM / llama.cpp) demand: never two user messages in a row. */
function assertAlternates(messages: readonly { role: string; content?: unknown }[], where: string): void {
  messages.forEach((m, i) => {
    if (i > 0 && m.role === "user")
      assert.notEqual(messages[i - 1]!.role, "user", `${where}: messages ${i - 1} and ${i} are both user messages`);
  });
}

const bigRead = defineTool({
  name: "read_log",
  toolsets: ["test"],
  kind: "read",
  description: "Reads a long log.",
  parameters: z.object({}),
  run: async () => ({ content: "log line ".repeat(600) }),
});

describe("after a compression, the history sent never holds two user messages in a row", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => {
    await llm.close();
    temp.cleanup();
  });

  const conversation = (contextLength: number, maxIterations: number, compression: CompressionSettings) =>
    new Conversation({
      runtime: scriptedRuntime(llm, { contextLength }),
      systemPrompt: "Identity.",
      openModelClient: createModelClient,
      tools: [todoTool, bigRead],
      maxIterations,
      compression,
    });
  const allRequests = () => llm.requests.map((r) => r.body.messages as readonly { role: string; content?: unknown }[]);

  it("at the start of a turn: an earlier task list that the tail begins with joins the summary, found by its header", async () => {
    // An earlier turn: the user's request, a long tool run, the task list a mid-turn compression re-injected, the end.
    const history: ChatMessage[] = [
      { role: "user", content: "first request" },
      { role: "assistant", content: "first answer" },
    ];
    for (let i = 0; i < 4; i++)
      history.push(
        { role: "user", content: `question ${i} ${"q".repeat(800)}` },
        { role: "assistant", content: `answer ${i} ${"a".repeat(800)}` },
      );
    history.push({ role: "user", content: "fix the bug" });
    for (let i = 0; i < 3; i++) {
      history.push(
        { role: "assistant", content: "", toolCalls: [{ id: `r${i}`, name: "read_log", arguments: "{}" }] },
        { role: "tool", toolCallId: `r${i}`, content: "x".repeat(i === 2 ? 5200 : 2000) },
      );
    }
    history.push(
      { role: "user", content: SNAPSHOT },
      { role: "assistant", content: "", toolCalls: [{ id: "r9", name: "read_log", arguments: "{}" }] },
      { role: "tool", toolCallId: "r9", content: "short" },
      { role: "assistant", content: "Fixed." },
    );
    assertAlternates(history, "the history before");
    const convo = conversation(8000, 10, { enabled: true, threshold: 0.5, targetRatio: 0.2, protectLastN: 3 });
    convo.restore(history);
    llm.enqueue({ kind: "text", chunks: ["## Goal\nFix the bug."] }, { kind: "text", chunks: ["Next done."] });
    const notices: string[] = [];
    await convo.runTurn(
      "what next?",
      new AbortController().signal,
      (e) => (e.type === "notice" ? notices.push(e.title) : undefined),
      toolEnvironment(temp.make(), temp.make()),
    );

    assert.deepEqual(notices, ["Context compressed"]);
    const sent = llm.requests.at(-1)!.body.messages as readonly { role: string; content?: unknown }[];
    assertAlternates(sent, "the request after the compression");
    assertAlternates(convo.messages, "the history after the turn");
    const withList = sent.filter((m) => String(m.content).includes(TODO_SNAPSHOT_HEADER));
    assert.equal(withList.length, 1, "the task list is still there, once");
    assert.equal(withList[0]!.role, "user");
    assert.ok(String(withList[0]!.content).endsWith(SNAPSHOT), "after the words it was joined to");
    assert.match(String(withList[0]!.content), /fix the bug/, "joined to the summary that carries the user's request");
    assert.equal(sent.at(-1)!.content, "what next?");
  });

  it("mid-turn: the task list and the last-call note become one message, not two", async () => {
    const convo = conversation(6000, 1, { enabled: true, threshold: 0.5, targetRatio: 0.2, protectLastN: 20 });
    const earlier: ChatMessage[] = [];
    for (let i = 0; i < 7; i++)
      earlier.push(
        { role: "user", content: `question ${i} ${"q".repeat(500)}` },
        { role: "assistant", content: `answer ${i} ${"a".repeat(500)}` },
      );
    convo.restore(earlier);
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          scriptedCall("c1", "todo", {
            todos: [
              { id: "1", content: "Read the log", status: "completed" },
              { id: "2", content: "Fix the bug", status: "in_progress" },
            ],
          }),
          scriptedCall("c2", "read_log", {}),
        ],
      },
      { kind: "text", chunks: ["## Goal\nFix the bug."] },
      { kind: "text", chunks: ["Out of steps."] },
    );
    const notices: string[] = [];
    const stop = await convo.runTurn(
      "go",
      new AbortController().signal,
      (e) => (e.type === "notice" ? notices.push(e.title) : undefined),
      toolEnvironment(temp.make(), temp.make()),
    );

    assert.equal(stop, "max_turn_requests");
    assert.deepEqual(notices, ["Context compressed"]);
    assert.equal(llm.requests.length, 3, "model, summary, the last model call");
    for (const [i, messages] of allRequests().entries()) assertAlternates(messages, `request ${i}`);
    const last = llm.requests[2]!.body.messages as readonly { role: string; content?: unknown }[];
    assert.equal(last.at(-2)!.role, "tool");
    assert.deepEqual(last.at(-1), { role: "user", content: `${BUDGET_EXHAUSTED_NOTE}\n\n${SNAPSHOT}` });
    assertAlternates(convo.messages, "the history after the turn");
  });
});

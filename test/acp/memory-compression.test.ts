import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RecordedRequest, ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { DISCARDED_HOME_ENV } from "../helpers/acp-harness.js";
import { ServerPool } from "../helpers/server-pool.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

const SUMMARY = "## Goal\nShip the parser.\n## Critical Context\nNone.";

const systemPromptOf = (request: RecordedRequest) => {
  const first = request.body.messages[0]!;
  assert.equal(first.role, "system");
  return String(first.content);
};

describe("hermes-acp: memory and the task list across a compression", () => {
  const temp = new TempDirs();
  const servers = new ServerPool();
  let llm: ScriptedLlm;
  let home: string;
  let workspace: string;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    home = hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "", 0);
    mkdirSync(join(home, "memories"));
    writeFileSync(join(home, "memories", "MEMORY.md"), "Project uses Rust");
    workspace = temp.make("hermes-ws-");
  });

  afterEach(async () => {
    await servers.closeAll();
    await llm.close();
    temp.cleanup();
  });

  it("rebuilds the system prompt with the memory saved this session, re-injects the active tasks, then keeps the prompt byte for byte", async () => {
    const harness = await servers.start(home, DISCARDED_HOME_ENV);
    const sessionId = await harness.newSession(workspace);
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          scriptedCall("c_todo", "todo", {
            todos: [
              { id: "1", content: "Write the lexer", status: "completed" },
              { id: "2", content: "Write the parser", status: "in_progress" },
              { id: "3", content: "Add tests", status: "pending" },
            ],
          }),
          scriptedCall("c_mem", "memory", {
            target: "memory",
            operations: [{ action: "add", content: "User prefers tabs" }],
          }),
        ],
      },
      { kind: "text", chunks: ["Noted."] },
    );
    await harness.prompt(sessionId, "Plan the parser work, and remember I like tabs");
    const memoryCall = harness.updates
      .map((u) => u.update)
      .find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "c_mem");
    assert.equal(
      memoryCall?.sessionUpdate === "tool_call" ? memoryCall.title : undefined,
      "Memory batch (1 operation): memory",
    );
    assert.match(JSON.stringify(llm.requests[1]!.body.messages), /Applied 1 operation\(s\)\./);
    for (let i = 0; i < 6; i++) {
      llm.enqueue({ kind: "text", chunks: [`Answer ${i}: ${"detail ".repeat(200)}`] });
      await harness.prompt(sessionId, `Question ${i} ${"context ".repeat(200)}`);
    }
    const frozen = systemPromptOf(llm.requests.at(-1)!);
    assert.match(frozen, /MEMORY \(your personal notes\) \[0% — 17\/2,200 chars\]\n═+\nProject uses Rust/);
    assert.ok(
      !frozen.includes("User prefers tabs"),
      "a write mid-session does not change the prompt before a compression",
    );

    llm.enqueue({ kind: "text", chunks: [SUMMARY] });
    await harness.prompt(sessionId, "/compress");
    assert.match(harness.replyText(sessionId), /Context compressed: \d+ -> \d+ messages/);

    llm.enqueue({ kind: "text", chunks: ["Carrying on."] }, { kind: "text", chunks: ["Still here."] });
    await harness.prompt(sessionId, "Continue");
    const afterCompression = llm.requests.at(-1)!;
    const rebuilt = systemPromptOf(afterCompression);
    assert.match(
      rebuilt,
      /MEMORY \(your personal notes\) \[1% — 37\/2,200 chars\]\n═+\nProject uses Rust\n§\nUser prefers tabs/,
    );
    assert.equal(
      rebuilt.replace(/MEMORY \(your personal notes\)[^]*?User prefers tabs/, ""),
      frozen.replace(/MEMORY \(your personal notes\)[^]*?Project uses Rust/, ""),
      "only the memory block changed",
    );
    assert.equal(
      afterCompression.body.messages.at(-1)!.content,
      "Continue\n\n[Your active task list was preserved across context compression]\n- [>] 2. Write the parser (in_progress)\n- [ ] 3. Add tests (pending)",
    );

    await harness.prompt(sessionId, "And now?");
    assert.equal(
      systemPromptOf(llm.requests.at(-1)!),
      rebuilt,
      "between compressions the prompt is byte for byte the same",
    );
    assert.equal(
      llm.requests.at(-1)!.body.messages.at(-1)!.content,
      "And now?",
      "the task list comes back once per compression",
    );
  });

  it("keeps the prompt in use when memory did not change", async () => {
    const harness = await servers.start(home, DISCARDED_HOME_ENV);
    const sessionId = await harness.newSession(workspace);
    for (let i = 0; i < 6; i++) {
      llm.enqueue({ kind: "text", chunks: [`Answer ${i}: ${"detail ".repeat(200)}`] });
      await harness.prompt(sessionId, `Question ${i} ${"context ".repeat(200)}`);
    }
    const before = systemPromptOf(llm.requests.at(-1)!);
    // Context files may change meanwhile; upstream rebuilds only when the memory block is stale, to keep the cache.
    writeFileSync(join(workspace, "AGENTS.md"), "Use four spaces.");
    llm.enqueue({ kind: "text", chunks: [SUMMARY] }, { kind: "text", chunks: ["ok"] });
    await harness.prompt(sessionId, "/compress");
    assert.match(harness.replyText(sessionId), /Context compressed: \d+ -> \d+ messages/);
    await harness.prompt(sessionId, "Continue");
    assert.equal(systemPromptOf(llm.requests.at(-1)!), before);
    assert.equal(
      llm.requests.at(-1)!.body.messages.at(-1)!.content,
      "Continue",
      "no active tasks, nothing re-injected",
    );
  });
});

import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/v4";
import { DEFAULT_COMPRESSION_SETTINGS } from "../../agent/compress/compression-settings.js";
import type { PromptSettings } from "../../agent/config/prompt-settings.js";
import { Conversation } from "../../agent/loop/conversation.js";
import { memoryBlock } from "../../agent/prompt/memory-snapshot.js";
import { systemPromptAfterCompression } from "../../agent/prompt/prompt-after-compression.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import type { ChatMessage } from "../../agent/providers/messages.js";
import { defineTool } from "../../agent/tools/define-tool.js";
import { memoryTool } from "../../agent/tools/session/memory-tool.js";
import { todoTool } from "../../agent/tools/session/todo-tool.js";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { scriptedRuntime } from "../helpers/scripted-runtime.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

const SETTINGS: PromptSettings = {
  contextFileMaxChars: undefined,
  memoryEnabled: true,
  userProfileEnabled: true,
  memoryCharLimit: 2200,
  userCharLimit: 1375,
};

describe("the system prompt after a compression", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function homeWith(files: Record<string, string>): string {
    const home = temp.make();
    mkdirSync(join(home, "memories"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(home, "memories", name), text);
    return home;
  }

  /** A prompt as the builder lays memory out: some stable text, then the blocks. */
  const promptFor = (home: string, settings = SETTINGS) =>
    [
      "Identity.",
      settings.memoryEnabled ? memoryBlock(home, "memory", 2200).text : "",
      settings.userProfileEnabled ? memoryBlock(home, "user", 1375).text : "",
    ]
      .filter(Boolean)
      .join("\n\n");

  it("keeps the prompt in use, byte for byte, while it shows memory as it is on disk", () => {
    const home = homeWith({ "MEMORY.md": "Project uses Rust", "USER.md": "Name: Lin" });
    const current = promptFor(home);
    let rebuilt = 0;
    assert.equal(
      systemPromptAfterCompression(current, home, SETTINGS, () => `rebuilt ${++rebuilt}`),
      current,
    );
    assert.equal(rebuilt, 0);
  });

  it("rebuilds when an entry was saved, when a store was emptied, and when a store is switched off", () => {
    const home = homeWith({ "MEMORY.md": "Project uses Rust", "USER.md": "Name: Lin" });
    const current = promptFor(home);
    writeFileSync(join(home, "memories", "MEMORY.md"), "Project uses Rust\n§\nUser prefers tabs");
    assert.equal(
      systemPromptAfterCompression(current, home, SETTINGS, () => "rebuilt"),
      "rebuilt",
    );
    const fresh = promptFor(home);
    writeFileSync(join(home, "memories", "USER.md"), "");
    assert.equal(
      systemPromptAfterCompression(fresh, home, SETTINGS, () => "rebuilt"),
      "rebuilt",
      "an emptied store must lose its block",
    );
    assert.equal(
      systemPromptAfterCompression(
        current,
        home,
        { ...SETTINGS, memoryEnabled: false, userProfileEnabled: false },
        () => "rebuilt",
      ),
      "rebuilt",
    );
    const none = promptFor(home, { ...SETTINGS, memoryEnabled: false, userProfileEnabled: false });
    assert.equal(
      systemPromptAfterCompression(
        none,
        home,
        { ...SETTINGS, memoryEnabled: false, userProfileEnabled: false },
        () => "rebuilt",
      ),
      none,
    );
  });

  it("after an automatic compression mid-turn, the next request has the refreshed memory and the active tasks", async () => {
    const llm = await ScriptedLlm.start();
    try {
      const home = homeWith({ "MEMORY.md": "Project uses Rust" });
      const runtime = scriptedRuntime(llm, { contextLength: 6000 });
      const bigRead = defineTool({
        name: "read_log",
        toolsets: ["test"],
        kind: "read",
        description: "Reads a long log.",
        parameters: z.object({}),
        run: async () => ({ content: "log line ".repeat(600) }),
      });
      const prompt = () => `Identity.\n\n${memoryBlock(home, "memory", 2200).text}`;
      const convo = new Conversation({
        runtime,
        systemPrompt: prompt(),
        openModelClient: createModelClient,
        tools: [todoTool, memoryTool, bigRead],
        maxIterations: 10,
        compression: DEFAULT_COMPRESSION_SETTINGS,
        refreshSystemPrompt: (current) => systemPromptAfterCompression(current, home, SETTINGS, prompt),
      });
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
            scriptedCall("c2", "memory", { action: "add", content: "Logs live in /var/log/app" }),
            scriptedCall("c3", "read_log", {}),
          ],
        },
        { kind: "text", chunks: ["## Goal\nFix the bug."] },
        { kind: "text", chunks: ["Fixed."] },
      );
      const notices: string[] = [];
      await convo.runTurn(
        "go",
        new AbortController().signal,
        (e) => (e.type === "notice" ? notices.push(e.title) : undefined),
        toolEnvironment(temp.make(), home),
      );

      assert.deepEqual(notices, ["Context compressed"]);
      assert.equal(llm.requests.length, 3, "model, summary, model");
      const [first, , after] = llm.requests.map((r) => r.body.messages);
      assert.ok(!String(first![0]!.content).includes("Logs live"), "the prompt was frozen before the compression");
      assert.match(String(after![0]!.content), /\nProject uses Rust\n§\nLogs live in \/var\/log\/app$/);
      assert.equal(after!.at(-2)!.role, "tool", "mid-turn, the task list follows the tool results");
      assert.deepEqual(after!.at(-1), {
        role: "user",
        content: "[Your active task list was preserved across context compression]\n- [>] 2. Fix the bug (in_progress)",
      });
      assert.equal(convo.messages.at(-1)!.content, "Fixed.");
    } finally {
      await llm.close();
    }
  });
});

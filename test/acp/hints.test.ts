import { strict as assert } from "node:assert";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { scriptedCall } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";
import { writeTree } from "../helpers/temp-dirs.js";

const call = scriptedCall;

describe("hermes-acp: subdirectory hints reach the model once", () => {
  const server = useScriptedServer({
    shared: true,
    prepare: ({ workspace }) =>
      writeTree(workspace, {
        "AGENTS.md": "root rules",
        "backend/AGENTS.md": "backend rules",
        "backend/src/main.py": "print('hi')\n",
        "frontend/CLAUDE.md": "frontend rules",
        "frontend/app.ts": "export {};\n",
        "deep/nested/path/.cursorrules": "deep rules",
      }),
  });

  const toolResults = (request: number) =>
    server.llm.requests[request]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  const countIn = (text: string, needle: string) => text.split(needle).length - 1;

  it("appends a read_file's and a terminal command's discoveries to their tool results, once", async () => {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("r1", "read_file", { path: "backend/src/main.py" })] },
      {
        kind: "tool_calls",
        calls: [
          call("t1", "terminal", { command: "cd deep/nested/path && ls" }),
          call("r2", "read_file", { path: "backend/src/main.py" }),
        ],
      },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "look around");
    const first = toolResults(1);
    assert.match(
      first[0]!,
      /1\|print\('hi'\)\n\n\[Subdirectory context discovered: backend\/AGENTS\.md\]\nbackend rules$/,
    );
    const second = toolResults(2);
    assert.match(second[1]!, /\[Subdirectory context discovered: deep\/nested\/path\/\.cursorrules\]\ndeep rules$/);
    assert.ok(!second[2]!.includes("Subdirectory context"), "the second read of backend/ finds nothing new");
    const all = JSON.stringify(server.llm.requests[2]!.body.messages);
    assert.equal(countIn(all, "backend rules"), 1);
    assert.ok(
      !String(server.llm.requests[0]!.body.messages[0]!.content).includes("backend rules"),
      "the system prompt is untouched",
    );
  });

  it("adds the hints of files the editor attaches to that user turn", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["ok"] }, { kind: "text", chunks: ["ok again"] });
    const sessionId = await server.harness.newSession(server.workspace);
    const uri = pathToFileURL(join(server.workspace, "frontend/app.ts")).href;
    await server.harness.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "review this" },
        { type: "resource_link", uri, name: "app.ts" },
      ],
    });
    const user = String(server.llm.requests[0]!.body.messages.at(-1)!.content);
    assert.match(
      user,
      /^review this\n\n\[Attached file: app\.ts\]\nURI: file:\/\/.*app\.ts\n\nexport \{\};\n\n\n\[Subdirectory context discovered: frontend\/CLAUDE\.md\]\nfrontend rules$/,
    );
    await server.harness.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "again" },
        { type: "resource_link", uri, name: "app.ts" },
      ],
    });
    assert.ok(
      !String(server.llm.requests[1]!.body.messages.at(-1)!.content).includes("frontend rules"),
      "once per session",
    );
  });

  it("expands @file references in the prompt and feeds their folders to the hints", async () => {
    server.llm.enqueue({ kind: "text", chunks: ["ok"] });
    const sessionId = await server.harness.newSession(server.workspace);
    await server.harness.prompt(sessionId, "what does @file:backend/src/main.py do?");
    const user = String(server.llm.requests[0]!.body.messages.at(-1)!.content);
    assert.ok(
      user.startsWith(
        "what does @file:backend/src/main.py do?\n\n--- Attached Context ---\n\n📄 @file:backend/src/main.py",
      ),
    );
    assert.match(user, /\[Subdirectory context discovered: backend\/AGENTS\.md\]\nbackend rules$/);
  });
});

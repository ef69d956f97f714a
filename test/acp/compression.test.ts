import { strict as assert } from "node:assert";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { DISCARDED_HOME_ENV } from "../helpers/acp-harness.js";
import { ServerPool } from "../helpers/server-pool.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

const SUMMARY =
  "## Goal\nShip the parser.\n## Constraints & Preferences\nNone.\n## Progress\nDone: lexer.\n## Key Decisions\nUse PEG.\n## Relevant Files\nsrc/parser.ts\n## Next Steps\nTests.\n## Critical Context\nNone.";

describe("hermes-acp: /compress", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let home: string;
  let workspace: string;
  const servers = new ServerPool();

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    home = hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "", 0);
    workspace = temp.make("hermes-ws-");
  });

  afterEach(async () => {
    await servers.closeAll();
    await llm.close();
    temp.cleanup();
  });

  const start = () => servers.start(home);
  /** The test's last server on this home: its exit fold is never read (DISCARDED_HOME_ENV). */
  const startLast = () => servers.start(home, DISCARDED_HOME_ENV);

  it("summarises the middle on demand, tells the user what it saved, and the next request carries the summary", async () => {
    const harness = await start();
    const sessionId = await harness.newSession(workspace);
    for (let i = 0; i < 6; i++) {
      llm.enqueue({ kind: "text", chunks: [`Answer ${i}: ${"detail ".repeat(200)}`] });
      await harness.prompt(sessionId, `Question ${i} ${"context ".repeat(200)}`);
    }
    llm.enqueue({ kind: "text", chunks: [SUMMARY] });
    assert.equal((await harness.prompt(sessionId, "/compress parser work")).stopReason, "end_turn");
    const summariser = llm.requests[6]!.body;
    assert.equal(summariser.tools, undefined, "the summary call offers no tools");
    assert.match(JSON.stringify(summariser.messages), /## Goal[\s\S]*## Critical Context/);
    assert.match(JSON.stringify(summariser.messages), /FOCUS TOPIC/);
    assert.match(harness.replyText(sessionId), /Context compressed: 12 -> \d+ messages\n~[\d,]+ -> ~[\d,]+ tokens/);

    llm.enqueue({ kind: "text", chunks: ["next"] });
    await harness.prompt(sessionId, "Continue");
    const sent = llm.requests[7]!.body.messages;
    const text = JSON.stringify(sent);
    assert.match(text, /CONTEXT COMPACTION — REFERENCE ONLY/);
    assert.match(text, /Ship the parser/);
    assert.ok(sent.length < 14, `the history shrank (${sent.length} messages)`);
    assert.equal(sent.at(-1)!.content, "Continue");
    assert.match(String(sent.at(-2)!.content), /^Answer 5/, "the tail is kept verbatim");

    await harness.close();
    const reopened = await startLast();
    await reopened.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    const replayed = reopened.updates.filter((u) => u.update.sessionUpdate === "user_message_chunk").length;
    assert.ok(replayed < 8, "a reload gets the compressed history");
  });

  it("says so when there is nothing to compress", async () => {
    const harness = await startLast();
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "/compress");
    assert.equal(harness.replyText(sessionId), "Nothing to compress — conversation is empty.");
    assert.equal(llm.requests.length, 0);
  });
});

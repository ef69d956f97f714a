import { strict as assert } from "node:assert";
import * as acp from "@agentclientprotocol/sdk";
import { AcpHarness, serverEnv } from "../helpers/acp-harness.js";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { FakeWeb } from "../fixtures/fake-web.js";
import { TempDirs, hermesHomeFor } from "../helpers/temp-dirs.js";

type Update = acp.SessionNotification["update"];

describe("hermes-acp: web tools over ACP", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let web: FakeWeb;
  let harness: AcpHarness | undefined;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    web = await FakeWeb.start();
    const home = hermesHomeFor(temp.make(), llm.baseUrl);
    // The fake web lives on 127.0.0.1, which page fetches refuse unless private URLs are allowed.
    harness = AcpHarness.spawn(serverEnv(home, { SEARXNG_URL: web.baseUrl, HERMES_ALLOW_PRIVATE_URLS: "true" }));
    await harness.initialize();
  });

  afterEach(async () => {
    await harness?.close();
    await llm.close();
    await web.close();
    assert.deepEqual(harness?.violations, []);
    temp.cleanup();
  });

  it("shows web_search and web_extract as fetch calls and hands the model the page as Markdown", async () => {
    const page = `${web.baseUrl}/article`;
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_search", "web_search", { query: "tide tables", limit: 1 })] },
      { kind: "tool_calls", calls: [scriptedCall("c_extract", "web_extract", { urls: [page, `${web.baseUrl}/notes.txt`] })] },
      { kind: "text", chunks: ["High water comes twice a day."] },
    );
    const sessionId = await harness!.newSession(temp.make("hermes-ws-"));
    assert.equal((await harness!.prompt(sessionId, "when is high tide?")).stopReason, "end_turn");

    const updates = harness!.updates.map((u) => u.update);
    const starts = updates.filter((u): u is Extract<Update, { sessionUpdate: "tool_call" }> => u.sessionUpdate === "tool_call");
    assert.deepEqual(starts.map((s) => [s.toolCallId, s.title, s.kind]), [
      ["c_search", "web search: tide tables", "fetch"],
      ["c_extract", `extract: ${page} (+1)`, "fetch"],
    ]);
    const ends = updates.filter((u): u is Extract<Update, { sessionUpdate: "tool_call_update" }> => u.sessionUpdate === "tool_call_update" && u.status !== undefined && u.status !== "in_progress");
    assert.deepEqual(ends.map((e) => [e.toolCallId, e.status]), [["c_search", "completed"], ["c_extract", "completed"]]);

    const searchResult = String(llm.requests[1]!.body.messages.at(-1)!.content);
    assert.match(searchResult, /^<untrusted_tool_result source="web_search">/);
    assert.match(searchResult, /"title": "Best match",\n\s+"url": "https:\/\/best\.example\/"/);

    const extractResult = llm.requests[2]!.body.messages.at(-1)!;
    assert.equal(extractResult.role, "tool");
    const json = /\n\n(\{[\s\S]*\})\n<\/untrusted_tool_result>$/.exec(String(extractResult.content));
    assert.ok(json, String(extractResult.content).slice(0, 400));
    const results = (JSON.parse(json[1]!) as { results: Array<{ url: string; title: string; content: string }> }).results;
    assert.equal(results[0]!.title, "Tide tables & you");
    assert.match(results[0]!.content, /^# Reading tide tables\n\nHigh water comes twice a day\. See \[the almanac\]\(https:\/\/example\.org\/tides\)\./);
    assert.ok(!results[0]!.content.includes("stealCookies"));
    assert.equal(results[1]!.content, "plain notes\nline two");
  });
});

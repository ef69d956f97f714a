import { strict as assert } from "node:assert";
import type * as acp from "@agentclientprotocol/sdk";
import { FakeWeb } from "../fixtures/fake-web.js";
import { scriptedCall } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

type Update = acp.SessionNotification["update"];

describe("hermes-acp: web tools over ACP", () => {
  let web: FakeWeb;
  const server = useScriptedServer({
    prepare: async () => void (web = await FakeWeb.start()),
    // The fake web lives on 127.0.0.1, which page fetches refuse unless private URLs are allowed.
    env: () => ({ SEARXNG_URL: web.baseUrl, HERMES_ALLOW_PRIVATE_URLS: "true" }),
    cleanup: () => web.close(),
  });

  it("shows web_search and web_extract as fetch calls and hands the model the page as Markdown", async () => {
    const page = `${web.baseUrl}/article`;
    server.llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("c_search", "web_search", { query: "tide tables", limit: 1 })] },
      {
        kind: "tool_calls",
        calls: [scriptedCall("c_extract", "web_extract", { urls: [page, `${web.baseUrl}/notes.txt`] })],
      },
      { kind: "text", chunks: ["High water comes twice a day."] },
    );
    const sessionId = await server.harness!.newSession(server.temp.make("hermes-ws-"));
    assert.equal((await server.harness!.prompt(sessionId, "when is high tide?")).stopReason, "end_turn");

    const updates = server.harness!.updates.map((u) => u.update);
    const starts = updates.filter(
      (u): u is Extract<Update, { sessionUpdate: "tool_call" }> => u.sessionUpdate === "tool_call",
    );
    assert.deepEqual(
      starts.map((s) => [s.toolCallId, s.title, s.kind]),
      [
        ["c_search", "web search: tide tables", "fetch"],
        ["c_extract", `extract: ${page} (+1)`, "fetch"],
      ],
    );
    const ends = updates.filter(
      (u): u is Extract<Update, { sessionUpdate: "tool_call_update" }> =>
        u.sessionUpdate === "tool_call_update" && u.status !== undefined && u.status !== "in_progress",
    );
    assert.deepEqual(
      ends.map((e) => [e.toolCallId, e.status]),
      [
        ["c_search", "completed"],
        ["c_extract", "completed"],
      ],
    );

    const searchResult = String(server.llm.requests[1]!.body.messages.at(-1)!.content);
    assert.match(searchResult, /^<untrusted_tool_result source="web_search">/);
    assert.match(searchResult, /"title": "Best match",\n\s+"url": "https:\/\/best\.example\/"/);

    const extractResult = server.llm.requests[2]!.body.messages.at(-1)!;
    assert.equal(extractResult.role, "tool");
    const json = /\n\n(\{[\s\S]*\})\n<\/untrusted_tool_result>$/.exec(String(extractResult.content));
    assert.ok(json, String(extractResult.content).slice(0, 400));
    const results = (JSON.parse(json[1]!) as { results: Array<{ url: string; title: string; content: string }> })
      .results;
    assert.equal(results[0]!.title, "Tide tables & you");
    assert.match(
      results[0]!.content,
      /^# Reading tide tables\n\nHigh water comes twice a day\. See \[the almanac\]\(https:\/\/example\.org\/tides\)\./,
    );
    assert.ok(!results[0]!.content.includes("stealCookies"));
    assert.equal(results[1]!.content, "plain notes\nline two");
  });
});

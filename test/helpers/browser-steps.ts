import { strict as assert } from "node:assert";
import type * as acp from "@agentclientprotocol/sdk";
import { LocalSite } from "../fixtures/local-site.js";
import { type RecordedRequest, type ScriptedReply, scriptedCall } from "../fixtures/scripted-llm.js";
import type { ScriptedServer } from "./scripted-server.js";

/* What the browser tests share: scripting the model's calls step by step, and reading the tools' answers back. */

export type Update = acp.SessionNotification["update"];
export type ToolEnd = Extract<Update, { sessionUpdate: "tool_call_update" }>;

/** The JSON inside a tool result, unwrapped from its untrusted-content block when it has one. */
export function resultJson(content: string): Record<string, unknown> {
  const wrapped = /\n\n(\{[\s\S]*\})\n<\/untrusted_tool_result>$/.exec(content);
  return JSON.parse(wrapped ? wrapped[1]! : content) as Record<string, unknown>;
}

export const lastToolResult = (request: RecordedRequest) => String(request.body.messages.at(-1)!.content);

/** The page snapshot the last tool call (a browser_navigate, a browser_snapshot) gave the model. */
export const snapshotOf = (request: RecordedRequest) => String(resultJson(lastToolResult(request)).snapshot);

/** The local test site for the tests of the describe block that calls this: started before them, closed after. */
export function useLocalSite(): Pick<LocalSite, "baseUrl" | "visits"> {
  let site: LocalSite | undefined;
  before(async () => void (site = await LocalSite.start()));
  after(() => site?.close());
  return {
    get baseUrl() {
      return site!.baseUrl;
    },
    get visits() {
      return site!.visits;
    },
  };
}

/** The ref of the element a snapshot line names (`- button "Plan" [ref=e7]` → `@e7`). */
export function refIn(snapshot: string, element: string): string {
  const found = new RegExp(`${element.replace(/[()[\]]/g, "\\$&")} \\[ref=(\\w+)\\]`).exec(snapshot);
  assert.ok(found, `no ${element} in:\n${snapshot}`);
  return `@${found[1]}`;
}

/** Replies in turn, each made from the request it answers (so a step can read the refs the previous one returned). */
export function scriptSteps(server: ScriptedServer, steps: ((request: RecordedRequest) => ScriptedReply)[]): void {
  let next = 0;
  server.llm.respondWith((request) => steps[next++]?.(request));
}

export const call = (id: string, name: string, args: unknown): ScriptedReply => ({
  kind: "tool_calls",
  calls: [scriptedCall(id, name, args)],
});

export function toolEnds(server: ScriptedServer): ToolEnd[] {
  return server.harness.updates
    .map((u) => u.update)
    .filter(
      (u): u is ToolEnd =>
        u.sessionUpdate === "tool_call_update" && u.status !== undefined && u.status !== "in_progress",
    );
}

/** The text the model was given for each tool call, by call id. */
export function toolResults(server: ScriptedServer): Map<string, string> {
  const results = new Map<string, string>();
  for (const request of server.llm.requests)
    for (const message of request.body.messages)
      if (message.role === "tool") results.set(String(message.tool_call_id), String(message.content));
  return results;
}

// The floor: the least an ACP agent on the same SDK and the same LLM SDK can do, for the benchmarks to compare
// against (#23: "measured side by side with a minimal agent"). Plain ESM run by bare Node from node_modules, no
// bundle, no engine: initialize answers, session/new makes an id, a prompt streams one chat-completions call and
// runs a read_file call against the disk when the model asks for one. Everything Hermes does on top of this (config,
// context files, the scanner, the gate, the store) is what the benchmarks weigh.
//
// Usage: node bench/floor-agent.mjs  (OPENAI_BASE_URL points at the scripted model)
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import OpenAI from "openai";

const READ_FILE = {
  type: "function",
  function: {
    name: "read_file",
    description: "Read a text file.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
};

const sessions = new Map();
let client;
const llm = () => (client ??= new OpenAI({ apiKey: "floor", baseURL: process.env.OPENAI_BASE_URL }));

/** One model call, streamed: text goes to the client as it arrives; tool calls are gathered. */
async function modelStep(messages, sessionId, connection) {
  const stream = await llm().chat.completions.create({ model: "floor", messages, tools: [READ_FILE], stream: true });
  let text = "";
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) {
      text += delta.content;
      await connection.notify("session/update", {
        sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: delta.content } },
      });
    }
    for (const call of delta?.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: call.id, name: "", arguments: "" });
      if (call.function?.name) slot.name += call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    }
  }
  return { text, calls };
}

async function runPrompt(session, prompt, connection, sessionId) {
  session.messages.push({ role: "user", content: prompt.map((b) => b.text ?? "").join("") });
  for (;;) {
    const { text, calls } = await modelStep(session.messages, sessionId, connection);
    session.messages.push({
      role: "assistant",
      content: text || null,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    });
    if (!calls.length) return { stopReason: "end_turn" };
    for (const call of calls) {
      const path = JSON.parse(call.arguments || "{}").path ?? "";
      const content = await readFile(isAbsolute(path) ? path : join(session.cwd, path), "utf8").catch((e) => String(e));
      session.messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
}

const app = acp
  .agent({ name: "floor" })
  .onRequest("initialize", () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {},
    agentInfo: { name: "floor", version: "0" },
    authMethods: [],
  }))
  .onRequest("session/new", ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, { cwd: params.cwd, messages: [] });
    return { sessionId };
  })
  .onRequest("session/prompt", ({ params, client: connection }) =>
    runPrompt(sessions.get(params.sessionId), params.prompt, connection, params.sessionId),
  );

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;

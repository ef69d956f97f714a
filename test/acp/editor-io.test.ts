import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

const call = scriptedCall;

describe("hermes-acp: files through the editor", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let home: string;
  let workspace: string;
  let harness: AcpHarness | undefined;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    home = hermesHomeFor(temp.make(), llm.baseUrl, "scripted-model", "", 0);
    workspace = temp.make("hermes-ws-");
    writeFileSync(join(workspace, "a.ts"), "on disk\n");
  });

  afterEach(async () => {
    await harness?.close();
    await llm.close();
    assert.deepEqual(harness?.violations, []);
    temp.cleanup();
  });

  it("reads the editor's unsaved buffer and writes through the editor when the client offers fs and terminal", async () => {
    const buffers = new Map<string, string>([[join(workspace, "a.ts"), "unsaved buffer\n"]]);
    const writes: Array<{ path: string; content: string }> = [];
    const client = acp
      .client({ name: "editor" })
      .onRequest("fs/read_text_file", async ({ params }) => ({
        content: buffers.get(params.path) ?? readFileSync(params.path, "utf8"),
      }))
      .onRequest("fs/write_text_file", async ({ params }) => {
        writes.push({ path: params.path, content: params.content });
        buffers.set(params.path, params.content);
        return {};
      })
      .onRequest("session/request_permission", async () => ({
        outcome: { outcome: "selected", optionId: "allow_once" },
      }));
    harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV), { client });
    // A client offering terminals too (this turn runs no command: client terminals are in client-terminals.test.ts).
    await harness.initialize({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    llm.enqueue(
      { kind: "tool_calls", calls: [call("r", "read_file", { path: "a.ts" })] },
      {
        kind: "tool_calls",
        calls: [call("w", "patch", { path: "a.ts", old_string: "unsaved", new_string: "edited" })],
      },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "edit a.ts");
    assert.match(String(llm.requests[1]!.body.messages.at(-1)!.content), /1\|unsaved buffer/);
    assert.deepEqual(writes, [{ path: join(workspace, "a.ts"), content: "edited buffer\n" }]);
    assert.equal(readFileSync(join(workspace, "a.ts"), "utf8"), "on disk\n", "the disk is left to the editor");
  });

  it("takes the editor's error reply to a read or a write as its refusal: nothing is read or written on disk behind its back", async () => {
    writeFileSync(join(workspace, "canary.txt"), "CANARY-7f3e on disk\n");
    const client = acp
      .client({ name: "refusing-editor" })
      .onRequest("fs/read_text_file", async ({ params }) => {
        if (params.path.endsWith("canary.txt"))
          throw acp.RequestError.internalError(undefined, "Access denied: outside project");
        return { content: readFileSync(params.path, "utf8") };
      })
      .onRequest("fs/write_text_file", async () => {
        throw acp.RequestError.internalError(undefined, "Access denied: read-only editor");
      })
      .onRequest("session/request_permission", async () => ({
        outcome: { outcome: "selected", optionId: "allow_once" },
      }));
    harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV), { client });
    await harness.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          call("r", "read_file", { path: "canary.txt" }),
          call("w", "write_file", { path: "a.ts", content: "overwritten\n" }),
          call("n", "write_file", { path: "b.ts", content: "b\n" }),
        ],
      },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await harness.newSession(workspace);
    assert.equal((await harness.prompt(sessionId, "go")).stopReason, "end_turn");
    const results = llm.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    assert.match(
      results[0]!,
      /The editor refused to read .*canary\.txt \(.*Access denied: outside project.*\); the file was not read/,
    );
    assert.match(
      results[1]!,
      /The editor refused to write .*a\.ts \(.*Access denied: read-only editor.*\); the file was not changed/,
    );
    assert.match(results[2]!, /The editor refused to write .*b\.ts/);
    assert.doesNotMatch(
      JSON.stringify(llm.requests.map((r) => r.body)),
      /CANARY-7f3e/,
      "the canary never reached the model",
    );
    assert.equal(readFileSync(join(workspace, "a.ts"), "utf8"), "on disk\n", "a.ts unchanged on disk");
    assert.equal(existsSync(join(workspace, "b.ts")), false, "b.ts not created on disk");
  });

  it("uses the disk only for a method the editor does not implement (-32601), and stops asking it for the session", async () => {
    const calls = { read: 0, write: 0 };
    const client = acp
      .client({ name: "half-editor" })
      .onRequest("fs/read_text_file", async () => {
        calls.read += 1;
        throw acp.RequestError.methodNotFound("fs/read_text_file");
      })
      .onRequest("fs/write_text_file", async () => {
        calls.write += 1;
        throw acp.RequestError.methodNotFound("fs/write_text_file");
      })
      .onRequest("session/request_permission", async () => ({
        outcome: { outcome: "selected", optionId: "allow_once" },
      }));
    harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV), { client });
    await harness.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    llm.enqueue(
      { kind: "tool_calls", calls: [call("r1", "read_file", { path: "a.ts" })] },
      {
        kind: "tool_calls",
        calls: [call("r2", "read_file", { path: "a.ts" }), call("w1", "write_file", { path: "b.ts", content: "b\n" })],
      },
      { kind: "tool_calls", calls: [call("w2", "write_file", { path: "c.ts", content: "c\n" })] },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await harness.newSession(workspace);
    assert.equal((await harness.prompt(sessionId, "go")).stopReason, "end_turn");
    assert.match(String(llm.requests[1]!.body.messages.at(-1)!.content), /1\|on disk/);
    assert.match(String(llm.requests[2]!.body.messages.at(-2)!.content), /1\|on disk/);
    assert.equal(readFileSync(join(workspace, "b.ts"), "utf8"), "b\n");
    assert.equal(readFileSync(join(workspace, "c.ts"), "utf8"), "c\n");
    assert.deepEqual(
      calls,
      { read: 1, write: 1 },
      "after -32601 the session no longer asks the editor for that method",
    );
  });

  it("takes an editor's rejection as final and reports a partial accept to the model", async () => {
    const client = acp
      .client({ name: "reviewing-editor" })
      .onRequest("fs/read_text_file", async ({ params }) => ({ content: readFileSync(params.path, "utf8") }))
      .onRequest("fs/write_text_file", async ({ params }) => {
        if (params.path.endsWith("rejected.ts"))
          throw new acp.RequestError(-32603, "The user rejected this edit", { reason: "rejected" });
        const kept = "kept part\n";
        writeFileSync(params.path, kept);
        return { _meta: { hermes: { keptText: kept } } };
      })
      .onRequest("session/request_permission", async () => ({
        outcome: { outcome: "selected", optionId: "allow_once" },
      }));
    harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV), { client });
    await harness.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [
          call("w1", "write_file", { path: "rejected.ts", content: "x\n" }),
          call("w2", "write_file", { path: "partial.ts", content: "kept part\nand more\n" }),
        ],
      },
      { kind: "text", chunks: ["noted"] },
    );
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "write both");
    const results = llm.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    assert.match(results[0]!, /The user rejected this edit to .*rejected\.ts in the editor; the file was not changed/);
    assert.throws(() => readFileSync(join(workspace, "rejected.ts")), "nothing was written behind the user's back");
    assert.match(results[1]!, /The user kept only part of this change to partial\.ts/);
  });

  it("uses the disk for a client that offers nothing", async () => {
    harness = AcpHarness.spawn(serverEnv(home, DISCARDED_HOME_ENV));
    await harness.initialize({});
    llm.enqueue(
      { kind: "tool_calls", calls: [call("r", "read_file", { path: "a.ts" })] },
      { kind: "text", chunks: ["done"] },
    );
    const sessionId = await harness.newSession(workspace);
    await harness.prompt(sessionId, "read");
    assert.match(String(llm.requests[1]!.body.messages.at(-1)!.content), /1\|on disk/);
  });
});

import { strict as assert } from "node:assert";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { scriptedCall as call } from "../fixtures/scripted-llm.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

interface PreviewFile {
  path: string;
  change: "added" | "deleted" | "modified";
  before: string | null;
  tooLarge?: boolean;
  binary?: boolean;
}

interface Preview {
  checkpoint: string;
  files: PreviewFile[];
}

interface Restored {
  restored: Array<{ path: string; change: string }>;
  undoCheckpoint?: string;
}

/** 2 MB and a bit: over the cap on the text a preview carries. */
const LARGE = `${"x".repeat(1023)}\n`.repeat(2 * 1024 + 8);

const BEFORE: Readonly<Record<string, string>> = {
  "patch-me.txt": "alpha\nbeta\n",
  "delete-me.txt": "keep me\n",
  "untouched.txt": "still here\n",
  "large.txt": LARGE,
};

describe("hermes-acp: _hermes/checkpoint/preview and /restore", function () {
  // Each test runs a turn that snapshots a 2 MB file and then several git operations: seconds alone, far more on a
  // machine busy with other suites.
  this.timeout(60_000);
  const server = useScriptedServer({
    shared: true,
    permission: "allow_once",
    prepare: (s) => {
      for (const [name, text] of Object.entries(BEFORE)) writeFileSync(join(s.workspace, name), text);
      writeFileSync(join(s.workspace, "blob.bin"), Buffer.from([0, 1, 2, 3]));
    },
  });

  const file = (name: string) => join(server.workspace, name);
  const read = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), "utf8") : undefined);
  const request = <T>(method: string, params: unknown) => server.harness.agent.request<T>(method, params);
  const preview = (sessionId: string, checkpoint: string) =>
    request<Preview>("_hermes/checkpoint/preview", { sessionId, checkpoint });

  /** A turn that creates a file, patches one, and deletes one, appends to a large one and a binary one. */
  async function changingTurn(sessionId: string): Promise<string> {
    server.llm.enqueue(
      { kind: "tool_calls", calls: [call("c_write", "write_file", { path: "new.txt", content: "brand new\n" })] },
      {
        kind: "tool_calls",
        calls: [call("c_patch", "patch", { path: "patch-me.txt", old_string: "beta", new_string: "gamma" })],
      },
      {
        kind: "tool_calls",
        calls: [
          call("c_run", "terminal", { command: "rm delete-me.txt && echo more >> large.txt && echo x >> blob.bin" }),
        ],
      },
      { kind: "text", chunks: ["Done."] },
    );
    const response = await server.harness.prompt(sessionId, "change things");
    const id = (response._meta as { hermes?: { checkpoint?: { id: string } } } | undefined)?.hermes?.checkpoint?.id;
    assert.ok(id, "the prompt response names the turn's checkpoint");
    assert.equal(read("new.txt"), "brand new\n");
    return id;
  }

  /** The JSON-RPC error a request failed with. */
  async function errorOf(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
    try {
      await promise;
    } catch (error) {
      return error as { code: number; message: string };
    }
    assert.fail("the request succeeded");
  }

  it("advertises the checkpoint methods in the initialize response", async () => {
    const init = await server.harness.waitForLine((m) => typeof m.result === "object" && m.id !== undefined);
    const caps = (init.result as acp.InitializeResponse).agentCapabilities;
    assert.deepEqual((caps?._meta as { hermes?: unknown } | undefined)?.hermes, { checkpoints: true });
  });

  it("previews every file the turn changed, with its text at the checkpoint", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    const id = await changingTurn(sessionId);
    const result = await preview(sessionId, id);
    assert.equal(result.checkpoint, id);
    const byName = new Map(result.files.map((f) => [f.path, f]));
    assert.deepEqual(
      [...byName.keys()].sort(),
      ["blob.bin", "delete-me.txt", "large.txt", "new.txt", "patch-me.txt"].map(file).sort(),
      "absolute paths of the changed files only",
    );
    assert.deepEqual(byName.get(file("new.txt")), { path: file("new.txt"), change: "added", before: null });
    assert.deepEqual(byName.get(file("patch-me.txt")), {
      path: file("patch-me.txt"),
      change: "modified",
      before: "alpha\nbeta\n",
    });
    assert.deepEqual(byName.get(file("delete-me.txt")), {
      path: file("delete-me.txt"),
      change: "deleted",
      before: "keep me\n",
    });
    assert.equal(byName.get(file("large.txt"))?.before, null);
    assert.equal(byName.get(file("large.txt"))?.tooLarge, true);
    assert.equal(byName.get(file("blob.bin"))?.before, null);
    assert.equal(byName.get(file("blob.bin"))?.binary, true);
    assert.equal(read("new.txt"), "brand new\n", "a preview changes no file");
  });

  it("restores the files, and the restore's own checkpoint undoes it", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    const id = await changingTurn(sessionId);
    const asked = server.permissions.length;
    const result = await request<Restored>("_hermes/checkpoint/restore", { sessionId, checkpoint: id });
    assert.deepEqual(result.restored.map((r) => [r.path, r.change]).sort(), [
      [file("blob.bin"), "modified"],
      [file("delete-me.txt"), "deleted"],
      [file("large.txt"), "modified"],
      [file("new.txt"), "added"],
      [file("patch-me.txt"), "modified"],
    ]);
    assert.equal(server.permissions.length, asked, "the client asked the user already: the server does not");
    assert.equal(read("new.txt"), undefined);
    for (const [name, text] of Object.entries(BEFORE)) assert.equal(read(name), text, `${name} is as before`);
    assert.deepEqual([...readFileSync(file("blob.bin"))], [0, 1, 2, 3]);

    assert.match(result.undoCheckpoint ?? "", /^[0-9a-f]{40,64}$/);
    await request<Restored>("_hermes/checkpoint/restore", { sessionId, checkpoint: result.undoCheckpoint });
    assert.equal(read("new.txt"), "brand new\n", "undoing the restore brings the turn's changes back");
    assert.equal(read("patch-me.txt"), "alpha\ngamma\n");
  });

  it("restores only the paths asked for, and refuses a path outside the session's folder", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    const id = await changingTurn(sessionId);
    const outside = await errorOf(
      request("_hermes/checkpoint/restore", { sessionId, checkpoint: id, paths: [join(server.workspace, "..", "x")] }),
    );
    assert.equal(outside.code, -32602);
    assert.match(outside.message, /not a file inside the session's folder/);
    assert.equal(read("new.txt"), "brand new\n", "nothing restored");

    const result = await request<Restored>("_hermes/checkpoint/restore", {
      sessionId,
      checkpoint: id,
      paths: [file("delete-me.txt")],
    });
    assert.deepEqual(result.restored, [{ path: file("delete-me.txt"), change: "deleted" }]);
    assert.equal(read("delete-me.txt"), "keep me\n");
    assert.equal(read("new.txt"), "brand new\n", "other files keep the turn's changes");
  });

  it("answers bad requests with errors and keeps serving", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    const id = await changingTurn(sessionId);
    const method = "_hermes/checkpoint/preview";
    assert.equal((await errorOf(request(method, { sessionId: "nope", checkpoint: id }))).code, -32002);
    const bad = [
      undefined,
      [],
      { sessionId },
      { sessionId, checkpoint: 12 },
      { sessionId, checkpoint: "not-hex" },
      { checkpoint: id },
    ];
    for (const params of bad)
      assert.equal((await errorOf(request(method, params))).code, -32602, JSON.stringify(params));
    const restore = "_hermes/checkpoint/restore";
    for (const paths of [[], ["relative.txt"], "x", [3]])
      assert.equal((await errorOf(request(restore, { sessionId, checkpoint: id, paths }))).code, -32602);
    const unknown = await errorOf(request(method, { sessionId, checkpoint: "deadbeef" }));
    assert.equal(unknown.code, -32602);

    server.llm.enqueue({ kind: "text", chunks: ["still here"] });
    assert.equal((await server.harness.prompt(sessionId, "hello?")).stopReason, "end_turn");
    assert.match(server.harness.replyText(sessionId), /still here/);
    assert.equal((await preview(sessionId, id)).files.length, 5, "and the methods still work");
  });

  it("refuses to restore while a turn runs", async () => {
    const sessionId = await server.harness.newSession(server.workspace);
    const id = await changingTurn(sessionId);
    const calls = server.llm.requests.length;
    server.llm.enqueue({ kind: "text", chunks: ["slow ", "answer"], chunkDelayMs: 400 });
    const turn = server.harness.prompt(sessionId, "take your time");
    while (server.llm.requests.length === calls) await new Promise((r) => setTimeout(r, 20));
    const refused = await errorOf(request("_hermes/checkpoint/restore", { sessionId, checkpoint: id }));
    assert.match(refused.message, /a turn is running/);
    assert.equal((await turn).stopReason, "end_turn");
    assert.equal(read("new.txt"), "brand new\n", "nothing restored");
    await request("_hermes/checkpoint/restore", { sessionId, checkpoint: id });
    assert.equal(read("new.txt"), undefined, "restored once the turn is over");
  });
});

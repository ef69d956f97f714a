import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { AcpWorkspace } from "../../acp-server/editor/acp-workspace.js";
import { TerminalLinks } from "../../acp-server/editor/terminal-links.js";
import type { Logger } from "../../acp-server/rpc/log.js";
import { TempDirs } from "../helpers/temp-dirs.js";

type Answer = (method: string, signal: AbortSignal | undefined) => Promise<unknown>;

/** An editor connection that answers fs requests with `answer`, counting them. */
function editor(answer: Answer): { client: acp.AgentContext; calls: string[] } {
  const calls: string[] = [];
  const request = (method: string, _params: unknown, options?: { cancellationSignal?: AbortSignal }) => {
    calls.push(method);
    return answer(method, options?.cancellationSignal);
  };
  return { client: { request } as unknown as acp.AgentContext, calls };
}

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** Issue 17, item 6: the editor's no is final, and silence is not a yes either. */
describe("AcpWorkspace: the editor's answers on files", () => {
  const temp = new TempDirs();
  let root: string;
  beforeEach(() => {
    root = temp.make("hermes-ws-");
    writeFileSync(join(root, "canary.txt"), "CANARY on disk\n");
  });
  afterEach(() => temp.cleanup());

  const workspace = (client: acp.AgentContext, timeoutMs?: number) =>
    new AcpWorkspace(
      root,
      "s1",
      client,
      { fs: { readTextFile: true, writeTextFile: true } },
      quiet,
      new TerminalLinks(),
      timeoutMs,
    );

  it("reports a read the editor does not answer in time as unanswered, without reading the disk", async () => {
    // As the SDK does with stopWaitingOnCancel: the request rejects when its cancellation signal fires.
    const { client } = editor(
      (_m, signal) =>
        new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("cancelled")))),
    );
    await assert.rejects(workspace(client, 50).readTextFile(join(root, "canary.txt")), (error: Error) => {
      assert.match(
        error.message,
        /The editor did not answer a read of .*canary\.txt within 0\.05 s; the file was not read\./,
      );
      return true;
    });
  });

  it("reports an error reply as the editor's refusal, and reads the disk only after -32601, once for the session", async () => {
    const refusing = editor(async () => {
      throw acp.RequestError.internalError(undefined, "Access denied: outside project");
    });
    await assert.rejects(
      workspace(refusing.client).readTextFile(join(root, "canary.txt")),
      /The editor refused to read .*Access denied: outside project/,
    );
    await assert.rejects(
      workspace(refusing.client).writeTextFile(join(root, "canary.txt"), "x"),
      /The editor refused to write/,
    );
    const missing = editor(async (method) => {
      throw acp.RequestError.methodNotFound(method);
    });
    const ws = workspace(missing.client);
    assert.equal(await ws.readTextFile(join(root, "canary.txt")), "CANARY on disk\n");
    assert.equal(await ws.readTextFile(join(root, "canary.txt")), "CANARY on disk\n");
    assert.deepEqual(missing.calls, ["fs/read_text_file"]);
  });
});

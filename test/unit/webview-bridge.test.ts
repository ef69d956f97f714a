import { strict as assert } from "node:assert";
import { createMessageConnection, type MessageConnection, ResponseError } from "vscode-jsonrpc/node";
import {
  connectToHost,
  type HostBridge,
  type MessageSource,
  PostMessageReader,
  PostMessageWriter,
} from "../../webview-ui/bridge.js";
import type { HostNotifications } from "../../webview-ui/protocol.js";

/** The webview's window as the bridge sees it: "message" events carrying whatever the host posted. */
class FakeWindow implements MessageSource {
  private readonly listeners = new Set<(event: MessageEvent) => void>();
  addEventListener(_type: "message", listener: (event: MessageEvent) => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: "message", listener: (event: MessageEvent) => void): void {
    this.listeners.delete(listener);
  }
  deliver(data: unknown): void {
    // postMessage clones its payload and delivers it in a later task.
    const copy: unknown = structuredClone(data);
    setImmediate(() => this.listeners.forEach((listener) => listener({ data: copy } as MessageEvent)));
  }
}

/** Both ends wired as in VS Code: webview postMessage → host onDidReceiveMessage, host postMessage → window events. */
function pair(): { view: HostBridge; host: MessageConnection; window: FakeWindow } {
  const window = new FakeWindow();
  const hostInbox = new FakeWindow();
  const view = connectToHost({ postMessage: (message) => hostInbox.deliver(message) }, window, createMessageConnection);
  const host = createMessageConnection(
    new PostMessageReader(hostInbox),
    new PostMessageWriter({ postMessage: (message) => window.deliver(message) }),
  );
  host.listen();
  return { view, host, window };
}

describe("webview bridge (JSON-RPC over postMessage)", () => {
  let connections: { view: HostBridge; host: MessageConnection }[] = [];
  afterEach(() => {
    for (const { view, host } of connections) {
      view.dispose();
      host.dispose();
    }
    connections = [];
  });
  const open = () => {
    const p = pair();
    connections.push(p);
    return p;
  };

  it("sends typed requests and resolves with the host's result", async () => {
    const { view, host } = open();
    host.onRequest("files/search", (params: { query: string }) => ({
      files: [{ uri: "file:///w/src/app.ts", path: `src/${params.query}.ts` }],
    }));
    const result = await view.request("files/search", { query: "app" });
    assert.deepEqual(result, { files: [{ uri: "file:///w/src/app.ts", path: "src/app.ts" }] });
  });

  it("rejects with the host's message when the host refuses", async () => {
    const { view, host } = open();
    host.onRequest("chat/prompt", () => {
      throw new ResponseError(-32000, "A turn is already running");
    });
    await assert.rejects(view.request("chat/prompt", { text: "hi" }), /A turn is already running/);
  });

  it("delivers host notifications to the typed handler, in order", async () => {
    const { view, host } = open();
    const seen: HostNotifications["chat/append"][] = [];
    const done = new Promise<void>((resolve) =>
      view.onNotification("chat/append", (params) => {
        seen.push(params);
        if (seen.length === 3) resolve();
      }),
    );
    for (const text of ["a", "b", "c"]) await host.sendNotification("chat/append", { id: "x", text });
    await done;
    assert.deepEqual(
      seen.map((p) => p.text),
      ["a", "b", "c"],
    );
  });

  it("ignores window messages that are not JSON-RPC (other senders on the same window)", async () => {
    const { view, host, window } = open();
    host.onRequest("sessions/list", () => ({ sessions: [] }));
    window.deliver({ type: "some-extension-thing" });
    window.deliver("plain string");
    assert.deepEqual(await view.request("sessions/list", {}), { sessions: [] });
  });
});

import type * as vscode from "vscode";
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  type DataCallback,
  type Message,
  type MessageConnection,
} from "vscode-jsonrpc/node";
import type {
  HostNotificationMethod,
  HostNotifications,
  HostRequestMethod,
  HostRequests,
} from "../../webview-ui/protocol.js";

/** Messages from the webview, as JSON-RPC: each postMessage payload is one message object (no framing needed). */
class WebviewReader extends AbstractMessageReader {
  constructor(private readonly webview: vscode.Webview) {
    super();
  }
  listen(callback: DataCallback): vscode.Disposable {
    return this.webview.onDidReceiveMessage((message: unknown) => {
      // A page that is not ours could post anything; only JSON-RPC 2.0 objects reach the connection.
      if (typeof message === "object" && message !== null && (message as { jsonrpc?: unknown }).jsonrpc === "2.0")
        callback(message as Message);
    });
  }
}

class WebviewWriter extends AbstractMessageWriter {
  constructor(private readonly webview: vscode.Webview) {
    super();
  }
  async write(message: Message): Promise<void> {
    // postMessage resolves false when the view is gone; the connection is disposed with the view anyway.
    await this.webview.postMessage(message);
  }
  end(): void {}
}

type Handler<M extends HostRequestMethod> = (
  params: HostRequests[M]["params"],
) => HostRequests[M]["result"] | Promise<HostRequests[M]["result"]>;
export type HostRequestHandlers = { readonly [M in HostRequestMethod]: Handler<M> };

/**
 * The host's end of the typed chat bridge: JSON-RPC (vscode-jsonrpc) over the webview's postMessage. Requests from
 * the view get answers or readable errors; notifications to it are typed by `HostNotifications`.
 */
export class WebviewBridge implements vscode.Disposable {
  private readonly connection: MessageConnection;

  constructor(webview: vscode.Webview, handlers: HostRequestHandlers, log: (message: string) => void) {
    this.connection = createMessageConnection(new WebviewReader(webview), new WebviewWriter(webview));
    for (const method of Object.keys(handlers) as HostRequestMethod[]) {
      this.connection.onRequest(method, async (params: unknown) => {
        try {
          return await (handlers[method] as (p: unknown) => unknown)(params ?? {});
        } catch (error) {
          log(`chat view request ${method} failed: ${(error as Error).message}`);
          throw error;
        }
      });
    }
    this.connection.listen();
  }

  notify<M extends HostNotificationMethod>(method: M, params: HostNotifications[M]): void {
    void this.connection.sendNotification(method, params).catch(() => undefined);
  }

  dispose(): void {
    this.connection.dispose();
  }
}

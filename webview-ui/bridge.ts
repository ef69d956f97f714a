import type {
  DataCallback,
  Disposable,
  Message,
  MessageConnection,
  MessageReader,
  MessageWriter,
} from "vscode-jsonrpc";
import { AbstractMessageReader, AbstractMessageWriter } from "vscode-jsonrpc";
import type { HostNotificationMethod, HostNotifications, HostRequestMethod, HostRequests } from "./protocol.js";

/** The half of `acquireVsCodeApi()` the bridge writes to. */
export interface PostTarget {
  postMessage(message: unknown): void;
}

/** Where the host's postMessage payloads arrive (the webview's `window`). */
export interface MessageSource {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

/** vscode-jsonrpc's connection factory: the browser build in the view, the Node build in tests. */
export type ConnectionFactory = (reader: MessageReader, writer: MessageWriter) => MessageConnection;

function isJsonRpcMessage(data: unknown): data is Message {
  return typeof data === "object" && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/** Reads the JSON-RPC messages the host posts to the webview; anything else on the window is not ours and is ignored. */
export class PostMessageReader extends AbstractMessageReader {
  constructor(private readonly source: MessageSource) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const listener = (event: MessageEvent): void => {
      if (isJsonRpcMessage(event.data)) callback(event.data);
    };
    this.source.addEventListener("message", listener);
    return { dispose: () => this.source.removeEventListener("message", listener) };
  }
}

/** Posts each JSON-RPC message object as it is: postMessage already delimits messages, so there is no framing. */
export class PostMessageWriter extends AbstractMessageWriter {
  private errors = 0;

  constructor(private readonly target: PostTarget) {
    super();
  }

  async write(message: Message): Promise<void> {
    try {
      this.target.postMessage(message);
    } catch (error) {
      this.fireError(error, message, ++this.errors);
      throw error;
    }
  }

  end(): void {}
}

/** The host as the view sees it: typed requests and notifications, checked against protocol.ts at compile time. */
export interface HostBridge {
  request<M extends HostRequestMethod>(
    method: M,
    params: HostRequests[M]["params"],
  ): Promise<HostRequests[M]["result"]>;
  onNotification<M extends HostNotificationMethod>(
    method: M,
    handler: (params: HostNotifications[M]) => void,
  ): Disposable;
  dispose(): void;
}

export function connectToHost(
  target: PostTarget,
  source: MessageSource,
  createConnection: ConnectionFactory,
): HostBridge {
  const connection = createConnection(new PostMessageReader(source), new PostMessageWriter(target));
  connection.listen();
  return {
    request: (method, params) => connection.sendRequest(method, params),
    onNotification: (method, handler) => connection.onNotification(method, handler),
    dispose: () => connection.dispose(),
  };
}

/** What to tell the user when a request failed: the host's own message (a ResponseError's) when it gave one. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

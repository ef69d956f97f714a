import { createServer, type Server, type Socket } from "node:net";
import { callLimitError, parseRpcRequest, type RpcRules, rpcError } from "./rpc-request.js";

/** A request line longer than this is refused and its connection closed: a script cannot make the server buffer GBs. */
export const MAX_RPC_LINE_BYTES = 16 * 1024 * 1024;

export interface RpcServerOptions extends RpcRules {
  readonly maxToolCalls: number;
  /** Runs one allowed, budgeted call and returns the JSON reply (one line, no newline). */
  readonly dispatch: (tool: string, args: Record<string, unknown>) => Promise<string>;
}

/**
 * The server end of hermes_tools: newline-delimited JSON over a Unix socket in the run's private folder. Each
 * connection is served one request at a time, in order; every request is judged by `parseRpcRequest` first. Only a
 * dispatched call uses the budget (refusals are free, as upstream's).
 */
export class ScriptRpcServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private calls = 0;

  private constructor(private readonly options: RpcServerOptions) {
    this.server = createServer((socket) => this.serve(socket));
  }

  static async listen(path: string, options: RpcServerOptions): Promise<ScriptRpcServer> {
    const rpc = new ScriptRpcServer(options);
    await new Promise<void>((resolve, reject) => {
      rpc.server.once("error", reject);
      rpc.server.listen(path, () => {
        rpc.server.off("error", reject);
        // Once listening, a failure of the listener must not take the server process down; the script sees it.
        rpc.server.on("error", () => {});
        resolve();
      });
    });
    return rpc;
  }

  /** Calls dispatched so far. */
  get toolCallsMade(): number {
    return this.calls;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    // Chunks of the line being received, joined only once its newline arrives (joining on every chunk is quadratic).
    let parts: Buffer[] = [];
    let size = 0;
    let queue = Promise.resolve();
    socket.on("data", (chunk: Buffer) => {
      let rest = chunk;
      let newline = rest.indexOf(0x0a);
      while (newline !== -1) {
        parts.push(rest.subarray(0, newline));
        const line = Buffer.concat(parts).toString("utf8").trim();
        parts = [];
        size = 0;
        rest = rest.subarray(newline + 1);
        if (line) queue = queue.then(() => this.answer(socket, line));
        newline = rest.indexOf(0x0a);
      }
      parts.push(rest);
      size += rest.length;
      if (size > MAX_RPC_LINE_BYTES) {
        parts = [];
        size = 0;
        socket.pause();
        queue = queue.then(() => {
          socket.end(`${rpcError(`Invalid RPC request: a request line is limited to ${MAX_RPC_LINE_BYTES} bytes`)}\n`);
        });
      }
    });
  }

  private async answer(socket: Socket, line: string): Promise<void> {
    const reply = await this.reply(line);
    if (!socket.destroyed) socket.write(`${reply}\n`);
  }

  private async reply(line: string): Promise<string> {
    const request = parseRpcRequest(line, this.options);
    if (!request.ok) return rpcError(request.error);
    if (this.calls >= this.options.maxToolCalls) return callLimitError(this.options.maxToolCalls);
    this.calls += 1;
    try {
      return await this.options.dispatch(request.tool, request.args);
    } catch (error) {
      return rpcError((error as Error).message ?? String(error));
    }
  }
}

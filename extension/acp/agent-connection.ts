import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type * as vscode from "vscode";
import type { ReviewController } from "../review/review-controller.js";
import { readTextFile, writeTextFile } from "./client-handlers.js";
import { spawnServer } from "./server-process.js";

export interface ConnectionHooks {
  readonly onUpdate: (notification: acp.SessionNotification) => void;
  readonly onPermission: (request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse>;
  readonly onExit: () => void;
}

export interface ConnectionOptions {
  readonly serverPath: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly log: vscode.OutputChannel;
  readonly review: ReviewController;
  readonly hooks: ConnectionHooks;
}

/**
 * The extension's ACP client of its own hermes-acp, exactly as Zed talks to it: one server per window, one session,
 * file access through the editor (unsaved buffers; writes become reviewed proposals).
 */
export class AgentConnection {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: acp.ClientConnection,
    readonly sessionId: string,
  ) {}

  static async start(options: ConnectionOptions): Promise<AgentConnection> {
    const child = spawnServer(options.serverPath, options.cwd, options.env, options.log);
    child.on("exit", () => options.hooks.onExit());
    const app = acp
      .client({ name: "hermes-vscode" })
      .onRequest("fs/read_text_file", ({ params }) => readTextFile(params))
      .onRequest("fs/write_text_file", ({ params }) => writeTextFile(params, options.review))
      .onRequest("session/request_permission", ({ params }) => options.hooks.onPermission(params))
      .onNotification("session/update", ({ params }) => options.hooks.onUpdate(params));
    const connection = app.connect(
      acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
    );
    try {
      await connection.agent.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        clientInfo: { name: "hermes-vscode", version: "0.1.0" },
      });
      const { sessionId } = await connection.agent.request("session/new", { cwd: options.cwd, mcpServers: [] });
      // Edits are reviewed as diffs in the editor, so the server need not ask about them as well.
      await connection.agent.request("session/set_config_option", { sessionId, configId: "mode", value: "accept_edits" } as acp.SetSessionConfigOptionRequest);
      return new AgentConnection(child, connection, sessionId);
    } catch (error) {
      child.kill();
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  prompt(prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.connection.agent.request("session/prompt", { sessionId: this.sessionId, prompt });
  }

  cancel(): Promise<void> {
    return this.connection.agent.notify("session/cancel", { sessionId: this.sessionId });
  }

  dispose(): void {
    this.connection.close();
    this.child.kill();
  }
}

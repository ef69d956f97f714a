import { strict as assert } from "node:assert";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { resolve } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { checkAgentMessage } from "./acp-schema.js";

export const SERVER_BIN = resolve(__dirname, "../../dist/acp-server.js");

/**
 * A clean environment for the server: nothing from the developer's shell leaks in (no real API keys). Without the
 * scanner's idle-time warm-up: a test server lives a second or two, and the warm-up cost the fast suite ~35 s of its
 * CPU (its own test runs it in process, scanner-warm-up.test.ts; a scan compiles what it needs either way).
 */
export function serverEnv(hermesHome: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: hermesHome,
    HERMES_HOME: hermesHome,
    HERMES_SCANNER_WARM_UP: "off",
    ...extra,
  };
}

/**
 * Extra environment for a server whose HERMES_HOME is deleted once it stops: it leaves its session journals unfolded at
 * exit (acp-server/rpc/serve-stdio.ts), which saves ~1 s of CPU in sql.js per server that nothing would read. A test
 * that starts another server on the same home leaves this out, so that the next server finds the folded database as
 * it would in production.
 */
export const DISCARDED_HOME_ENV: Readonly<Record<string, string>> = { HERMES_SKIP_EXIT_COMPACTION: "1" };

/**
 * The built hermes-acp spawned as a child process and driven by the SDK's real client over its real stdio. Every
 * line the server writes is parsed and checked against the ACP JSON Schema; `violations` lists what failed.
 */
export class AcpHarness {
  readonly updates: acp.SessionNotification[] = [];
  readonly violations: string[] = [];
  readonly stdoutLines: string[] = [];
  stderr = "";
  private readonly methodsById = new Map<string, string>();
  private readonly toServer = new PassThrough();
  private readonly connection: acp.ClientConnection;
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    client: acp.ClientApp,
  ) {
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString("utf8")));
    this.exited = new Promise((done) => child.on("exit", (code) => done(code)));
    const fromServer = new PassThrough();
    tapLines(child.stdout, (line) => this.inspectIncoming(line), fromServer);
    tapLines(this.toServer, (line) => this.inspectOutgoing(line), child.stdin);
    this.connection = client.connect(
      acp.ndJsonStream(
        Writable.toWeb(this.toServer) as WritableStream<Uint8Array>,
        Readable.toWeb(fromServer) as ReadableStream<Uint8Array>,
      ),
    );
  }

  static spawn(
    env: Record<string, string>,
    /** `bin`: an installed executable to run instead of this checkout's build (the package-install test). */
    options: { args?: string[]; cwd?: string; client?: acp.ClientApp; bin?: string } = {},
  ): AcpHarness {
    const [file, args] = options.bin
      ? [options.bin, options.args ?? []]
      : [process.execPath, [SERVER_BIN, ...(options.args ?? [])]];
    const child = spawn(file, args, {
      env,
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const updates: acp.SessionNotification[] = [];
    const client = (options.client ?? acp.client({ name: "test-client" })).onNotification(
      "session/update",
      ({ params }) => {
        updates.push(params);
      },
    );
    const harness = new AcpHarness(child, client);
    // Share one array: the notification handler was registered before the harness existed.
    (harness as { updates: acp.SessionNotification[] }).updates = updates;
    return harness;
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  async initialize(clientCapabilities: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
    return this.agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities,
      clientInfo: { name: "test-client", version: "1" },
    });
  }

  async newSession(cwd: string): Promise<string> {
    return (await this.agent.request("session/new", { cwd, mcpServers: [] })).sessionId;
  }

  prompt(sessionId: string, text: string): Promise<acp.PromptResponse> {
    return this.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  }

  /** The agent's reply text in a session, from its agent_message_chunk updates. */
  replyText(sessionId: string): string {
    return agentText(this.updates, sessionId);
  }

  /** Sends a text prompt and returns the reply it streamed (its agent_message_chunk text). */
  async replyTo(sessionId: string, text: string): Promise<string> {
    const from = this.updates.length;
    await this.prompt(sessionId, text);
    return agentText(this.updates.slice(from), sessionId);
  }

  /** Writes raw bytes to the server's stdin, bypassing the SDK (for malformed input). */
  writeRaw(text: string): void {
    this.child.stdin.write(text);
  }

  /** Waits for a raw stdout line that satisfies `predicate`. */
  async waitForLine(
    predicate: (message: Record<string, unknown>) => boolean,
    timeoutMs = 5000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const line of this.stdoutLines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (predicate(message)) return message;
      }
      if (Date.now() > deadline) throw new Error(`no matching line; stdout: ${this.stdoutLines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Stops the server, then fails the test if anything it wrote broke the ACP schema. */
  async closeAndCheck(): Promise<void> {
    await this.close();
    assert.deepEqual(this.violations, [], "every message the server wrote follows the ACP schema");
  }

  /** Ends stdin and waits for the exit; a server still running after `killAfterMs` is killed. */
  async close(killAfterMs = 3000): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), killAfterMs);
    const code = await this.exited;
    clearTimeout(timer);
    this.connection.close();
    return code;
  }

  private inspectIncoming(line: string): void {
    this.stdoutLines.push(line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.violations.push(`stdout carried a non-JSON line: ${line.slice(0, 200)}`);
      return;
    }
    this.violations.push(...checkAgentMessage(message, (id) => this.methodsById.get(JSON.stringify(id))));
  }

  private inspectOutgoing(line: string): void {
    try {
      const message = JSON.parse(line) as { id?: unknown; method?: string };
      if (message.method && message.id !== undefined) this.methodsById.set(JSON.stringify(message.id), message.method);
    } catch {
      // raw garbage written on purpose by a test
    }
  }
}

/** Copies `source` to `sink` unchanged while handing each complete line to `onLine`. */
function tapLines(source: NodeJS.ReadableStream, onLine: (line: string) => void, sink: NodeJS.WritableStream): void {
  let buffered = "";
  source.on("data", (data: Buffer) => {
    buffered += data.toString("utf8");
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) onLine(line);
    }
    sink.write(data);
  });
  source.on("end", () => sink.end());
}

/** The text of a session's agent_message_chunk updates, in order. */
function agentText(updates: readonly acp.SessionNotification[], sessionId: string): string {
  return updates
    .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "agent_message_chunk")
    .map((n) => (n.update as { content: { type: string; text?: string } }).content.text ?? "")
    .join("");
}

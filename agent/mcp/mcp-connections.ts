import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { rememberSecret, rememberSecretsOfEnv } from "../config/secret-values.js";
import type { Tool } from "../tools/tool.js";
import { offeredTools, stdioEnvironment } from "./mcp-server-policy.js";
import { type McpNameValue, type McpServerSpec, mcpTransportOf } from "./mcp-server-spec.js";
import { createMcpTool, type McpToolInfo, mcpToolName } from "./mcp-tool.js";

export interface McpConnectOptions {
  /** The session's working directory: where stdio servers run. */
  readonly cwd: string;
  /** Aborting stops the servers still starting (they become failures); servers already up stay until close(). */
  readonly signal?: AbortSignal;
  /** How long one server may take to start and list its tools. */
  readonly timeoutMs?: number;
  /** How long one tool call may stay silent before it fails (progress notifications reset it). */
  readonly toolTimeoutMs?: number;
  /** Diagnostics: stdio servers' stderr lines, connections lost, protocol errors. */
  readonly log?: (line: string) => void;
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

export interface McpServerFailure {
  readonly server: string;
  readonly message: string;
}

export interface McpConnectedServer {
  readonly name: string;
  readonly transport: "stdio" | "http" | "sse";
  /** The names its tools are offered under. */
  readonly tools: readonly string[];
}

export interface McpConnections {
  /** Every connected server's tools, named `mcp_<server>_<tool>`, ready for the conversation's tool list. */
  readonly tools: Tool[];
  /** Servers that could not start or list their tools: to be shown to the user, never thrown. */
  readonly failures: McpServerFailure[];
  readonly servers: McpConnectedServer[];
  /** Closes every connection and stops stdio servers. Safe to call more than once. */
  close(): Promise<void>;
}

export const DEFAULT_MCP_START_TIMEOUT_MS = 15_000;
/** A server whose `nextCursor` never ends must not hang the session start. */
const MAX_TOOL_PAGES = 50;
const STDERR_TAIL_CHARS = 2_000;
/** The polite session DELETE of an HTTP server must not hold up closing. */
const TERMINATE_SESSION_MS = 2_000;

interface StartedServer {
  readonly spec: McpServerSpec;
  readonly client: Client;
  readonly tools: McpToolInfo[];
  stop(): Promise<void>;
}

/**
 * Starts the session's MCP servers concurrently and collects their tools. The MCP SDK is loaded here, on first
 * use, so sessions without MCP servers never pay for it.
 */
export async function connectMcpServers(
  servers: readonly McpServerSpec[],
  options: McpConnectOptions,
): Promise<McpConnections> {
  if (servers.length === 0) return { tools: [], failures: [], servers: [], close: async () => {} };
  for (const spec of servers) rememberSpecSecrets(spec);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const settled = await Promise.allSettled(servers.map((spec) => startServer(spec, options, Client)));

  const started: StartedServer[] = [];
  const failures: McpServerFailure[] = [];
  const connected: McpConnectedServer[] = [];
  const tools: Tool[] = [];
  const taken = new Set<string>();
  // Names are given in the order the servers were listed, so they are stable whichever server answered first.
  settled.forEach((outcome, i) => {
    const spec = servers[i]!;
    if (outcome.status === "rejected") {
      failures.push({ server: spec.name, message: errorText(outcome.reason) });
      options.log?.(`MCP server '${spec.name}' failed to start: ${errorText(outcome.reason)}`);
      return;
    }
    const server = outcome.value;
    started.push(server);
    const timeoutMs = spec.policy?.toolTimeoutMs ?? options.toolTimeoutMs;
    const names = offeredTools(server.tools, spec.policy).map((tool) => {
      const name = mcpToolName(spec.name, tool.name, taken);
      tools.push(createMcpTool({ server: spec.name, tool, client: server.client, name, timeoutMs }));
      return name;
    });
    // The transport it ended up on: an http entry of config.yaml may have fallen back to SSE.
    connected.push({ name: spec.name, transport: mcpTransportOf(server.spec), tools: names });
  });

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= Promise.all(started.map((s) => s.stop())).then(() => undefined));
  return { tools, failures, servers: connected, close };
}

async function startServer(
  spec: McpServerSpec,
  options: McpConnectOptions,
  ClientClass: typeof Client,
): Promise<StartedServer> {
  const timeoutMs = spec.policy?.connectTimeoutMs ?? options.timeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`did not start within ${formatSeconds(timeoutMs)}`)),
    timeoutMs,
  );
  const onAbort = () => deadline.abort(new Error("cancelled while starting"));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const stderr = new StderrTail(spec.name, options.log);
  let client: Client | undefined;
  // Only a server that was up and dropped by itself deserves a log line; failed starts are reported as failures.
  let state: "starting" | "ready" | "stopping" = "starting";
  const stop = async () => {
    state = "stopping";
    await closeConnection(client);
  };
  try {
    // Cancelled before it began: spawn nothing.
    deadline.signal.throwIfAborted();
    const transport = await createTransport(spec, options.cwd, stderr);
    client = new ClientClass(options.clientInfo ?? { name: "hermes-agent", version: "0.1.0" }, { capabilities: {} });
    const log = options.log;
    client.onerror = (error) => log?.(`MCP server '${spec.name}': ${error.message}`);
    client.onclose = () => {
      if (state === "ready")
        log?.(`MCP server '${spec.name}' closed the connection; its tools will fail until the session restarts.`);
    };
    const connecting = connectAndList(client, transport, deadline.signal, timeoutMs);
    // Abandoned on timeout or cancel; the rejection that follows our close must not go unhandled.
    connecting.catch(() => {});
    const tools = await untilAborted(connecting, deadline.signal);
    state = "ready";
    return { spec, client, tools, stop };
  } catch (error) {
    await stop().catch(() => {});
    if (spec.type === "http" && spec.sseFallback && isStreamableHttpRejection(error) && !deadline.signal.aborted) {
      // Upstream's fallback for SSE-only servers, tried once at the first connect.
      options.log?.(
        `MCP server '${spec.name}' rejected Streamable HTTP (${errorText(error)}); retrying over SSE. Set \`transport: sse\` for it in config.yaml to skip the first attempt.`,
      );
      try {
        return await startServer({ ...spec, type: "sse" }, options, ClientClass);
      } catch (sseError) {
        throw new Error(`${failureText(spec, error, stderr.text())}; over SSE: ${errorText(sseError)}`);
      }
    }
    throw new Error(failureText(spec, error, stderr.text()));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

async function connectAndList(
  client: Client,
  transport: Transport,
  signal: AbortSignal,
  timeout: number,
): Promise<McpToolInfo[]> {
  await client.connect(transport, { signal, timeout });
  // A server may offer only resources or prompts; that is not a failure, it just brings no tools.
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

async function createTransport(spec: McpServerSpec, cwd: string, stderr: StderrTail): Promise<Transport> {
  switch (spec.type) {
    case "http": {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: headerRecord(spec.headers) },
      });
    }
    case "sse": {
      const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
      // The SSE transport sends requestInit headers on both its event stream and its POSTs.
      return new SSEClientTransport(new URL(spec.url), { requestInit: { headers: headerRecord(spec.headers) } });
    }
    default: {
      const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
      const transport = new StdioClientTransport({
        command: spec.command,
        args: [...(spec.args ?? [])],
        env: stdioEnvironment(spec),
        cwd,
        // Piped, not inherited: the ACP server's own stdio is the protocol channel, and the tail explains failures.
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer | string) => stderr.add(String(chunk)));
      return transport;
    }
  }
}

/**
 * A 4xx answer to the Streamable HTTP POST (the SDK's StreamableHTTPError carries the status as `code`), other than
 * 401/403: a refused key is not a transport mismatch, and its own message says more than an SSE retry's would.
 */
function isStreamableHttpRejection(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

function headerRecord(headers: readonly McpNameValue[] | undefined): Record<string, string> {
  return Object.fromEntries((headers ?? []).map(({ name, value }) => [name, value]));
}

async function closeConnection(client: Client | undefined): Promise<void> {
  if (!client) return;
  const transport = client.transport;
  // Streamable HTTP servers keep a session until told otherwise; stdio children are ended by close() itself.
  if (transport && "terminateSession" in transport && typeof transport.terminateSession === "function") {
    const terminate = (transport.terminateSession as () => Promise<void>).call(transport).catch(() => {});
    await Promise.race([terminate, new Promise((resolve) => setTimeout(resolve, TERMINATE_SESSION_MS).unref())]);
  }
  await client.close().catch(() => {});
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function failureText(spec: McpServerSpec, error: unknown, stderrTail: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  let message: string;
  if (spec.type === "http" || spec.type === "sse") message = `${errorText(error)} (${spec.url})`;
  else message = code === "ENOENT" ? `command not found: ${spec.command}` : errorText(error);
  if (stderrTail) message += `\nstderr:\n${stderrTail}`;
  return message;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Forwards a stdio server's stderr line by line to the log and keeps its end to explain a failed start. */
class StderrTail {
  private tail = "";
  private partial = "";
  constructor(
    private readonly server: string,
    private readonly log?: (line: string) => void,
  ) {}

  add(chunk: string): void {
    this.tail = (this.tail + chunk).slice(-STDERR_TAIL_CHARS);
    const lines = (this.partial + chunk).split(/\r?\n/);
    this.partial = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) this.log?.(`[mcp ${this.server}] ${line}`);
  }

  text(): string {
    return this.tail.trim();
  }
}

/**
 * A client hands keys to its MCP servers (stdio `env`, http `headers`): they are redacted from logs and errors like
 * the server's own (an MCP server's failure message may quote its Authorization header).
 */
function rememberSpecSecrets(spec: McpServerSpec): void {
  if (spec.type === "http" || spec.type === "sse") {
    for (const { name, value } of spec.headers ?? []) {
      if (/^(authorization|proxy-authorization|cookie)$/i.test(name) || /key|token|secret/i.test(name))
        rememberSecret(`${spec.name} ${name}`, value.replace(/^(Bearer|Basic)\s+/i, ""));
    }
    return;
  }
  rememberSecretsOfEnv(Object.fromEntries((spec.env ?? []).map((e) => [e.name, e.value])));
}

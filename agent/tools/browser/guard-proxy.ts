import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { checkHost, type HostCheck, type RequestPolicy } from "./request-guard.js";

/*
 * The browser's only way out: Chromium is launched with this proxy for every request (Playwright also routes loopback
 * through it, `<-loopback>`), so each page load, image, script, fetch(), form post, redirect hop, WebSocket and
 * service-worker request reaches the network only from here. Each host is resolved here and judged address by
 * address, and the connection goes to the address that passed: a name that answers differently the second time (DNS
 * rebinding) gets no second lookup. Plain http is forwarded; https and WebSockets ride CONNECT tunnels, judged by host
 * and port before the tunnel opens (their content stays encrypted end to end). A refusal answers 403 with the reason.
 */

export interface BlockedRequest {
  readonly url: string;
  readonly reason: string;
}

export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's proxy setting. */
  readonly url: string;
  close(): Promise<void>;
}

/** Headers that describe one hop, not the request: never forwarded (RFC 9110 §7.6.1, and the proxy's own). */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

export async function startGuardProxy(
  policy: () => RequestPolicy,
  onBlocked: (blocked: BlockedRequest) => void,
): Promise<GuardProxy> {
  const sockets = new Set<Socket | Duplex>();
  const server = createServer((req, res) => void forward(req, res, policy(), onBlocked));
  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    void tunnel(req, client, head, policy(), onBlocked);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function refuse(res: ServerResponse, reason: string): void {
  res.writeHead(403, { "content-type": "text/plain; charset=utf-8", "x-hermes-blocked": "1" });
  res.end(`${reason}\n`);
}

/** A plain-http request, asked for by absolute URL: judged, then sent on to the address that passed. */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  policy: RequestPolicy,
  onBlocked: (b: BlockedRequest) => void,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    return refuse(res, "Blocked: the browser sent a request without an absolute URL");
  }
  if (url.protocol !== "http:") return refuse(res, `Blocked: ${url.protocol} is not proxied`);
  const check = await checkHost(url.hostname, policy);
  if (!check.ok) {
    onBlocked({ url: url.href, reason: check.reason });
    return refuse(res, check.reason);
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
  const upstream = request(url, {
    method: req.method,
    headers,
    agent: false,
    // The address that was judged, not a second lookup of the name.
    lookup: (_host, _options, callback) => callback(null, check.address, check.family),
  });
  upstream.on("response", (answer) => {
    const answerHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !HOP_HEADERS.has(name)) answerHeaders[name] = value;
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
    answer.pipe(res);
  });
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    res.end(`Bad gateway: ${error.message}\n`);
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}

/** A CONNECT tunnel (https, wss): judged by host before any byte goes through. */
async function tunnel(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  policy: RequestPolicy,
  onBlocked: (b: BlockedRequest) => void,
): Promise<void> {
  // Before the first await: a client that goes away while its host is resolved must not raise an unhandled error.
  client.on("error", () => client.destroy());
  const target = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? "");
  if (!target) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
  const [, host, port] = target as unknown as [string, string, string];
  const check = await checkHost(host, policy).catch(
    (error: unknown): HostCheck => ({ ok: false, reason: `Blocked: ${host}: ${(error as Error).message}` }),
  );
  if (!check.ok) {
    onBlocked({ url: `https://${req.url}`, reason: check.reason });
    return void client.end(`HTTP/1.1 403 Forbidden\r\nx-hermes-blocked: 1\r\n\r\n`);
  }
  const server = connect(Number(port), check.address, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) server.write(head);
    server.pipe(client);
    client.pipe(server);
  });
  const end = () => {
    server.destroy();
    client.destroy();
  };
  server.on("error", end);
  client.on("error", end);
  client.on("close", () => server.destroy());
}

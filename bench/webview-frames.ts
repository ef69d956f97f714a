/**
 * Frame times of the chat view under load: the real webview bundle (dist/webview/) in the real page and CSP
 * (extension/chat/chat-html.ts), with a fake host (bench/webview-fake-host.ts) that replays 2,000 mixed items and then
 * streams an agent reply at 1,000 tokens/s, one notification per token. Headless Chromium (Debian's, driven by
 * playwright-core) records every animation frame; the script prints p50/p95/p99/max per phase and
 * the long frames (> 50 ms), and saves them to bench/results/webview-frames.json. Phases: "stream" (following the
 * reply at the bottom), "scroll" (the user scrolls up through the 2,000 items), "reading" (a reply streams while the
 * user reads further up). Two checks: the view followed the stream, and it did not move what the user was reading.
 * Run: `npm run bench:webview` (builds first). Needs `npm run e2e:setup` once.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import * as esbuild from "esbuild";
import { type CDPSession, chromium } from "playwright-core";
import type * as vscode from "vscode";
import { chatHtml } from "../extension/chat/chat-html.js";

const ITEMS = 2000;
const TOKENS_PER_SECOND = 1000;
const STREAM_SECONDS = 5;
const LONG_FRAME_MS = 50;

const repo = resolve(__dirname, "..");
const webviewDir = join(repo, "dist/webview");
const chromiumPath = process.env.HERMES_E2E_CHROMIUM ?? "/usr/bin/chromium";

for (const [what, path] of [
  ["webview bundle (npm run build)", join(webviewDir, "main.js")],
  ["chromium (npm run e2e:setup)", chromiumPath],
] as const) {
  if (!existsSync(path)) {
    process.stderr.write(`bench:webview: missing ${what}: ${path}\n`);
    process.exit(2);
  }
}

/** A vscode.Uri stand-in for chatHtml: the page's assets are served over HTTP from dist/webview/. */
function httpUri(origin: string, path: string): vscode.Uri {
  const uri = {
    path,
    with: (change: { path: string }) => httpUri(origin, change.path),
    toString: () => `${origin}${path}`,
  };
  return uri as unknown as vscode.Uri;
}

async function buildFakeHost(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(repo, "bench/webview-fake-host.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
  });
  return result.outputFiles[0]!.text;
}

function stats(frames: readonly number[]) {
  const sorted = [...frames].sort((a, b) => a - b);
  const at = (q: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return {
    frames: frames.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: at(1),
    longFrames: frames.filter((f) => f > LONG_FRAME_MS).length,
  };
}

async function main(): Promise<void> {
  const fakeHost = await buildFakeHost();
  let page = "";
  const TYPES: Record<string, string> = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".html": "text/html",
    ".map": "application/json",
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const body =
      path === "/favicon.ico"
        ? ""
        : path === "/"
          ? page
          : path === "/fake-host.js"
            ? fakeHost
            : path.startsWith("/webview/")
              ? safeRead(join(webviewDir, path.slice("/webview/".length)))
              : undefined;
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(path)] ?? "text/html" }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The real page and CSP, with the fake host's script (same nonce) loaded before the bundle.
  const html = chatHtml({ cspSource: origin, asWebviewUri: (uri) => uri }, httpUri(origin, "/webview"));
  const nonce = /nonce="([^"]+)"/.exec(html)![1]!;
  page = html.replace("<script nonce", `<script nonce="${nonce}" src="/fake-host.js"></script>\n<script nonce`);

  const profile = join(tmpdir(), `hermes-bench-webview-${process.pid}`);
  mkdirSync(profile, { recursive: true });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
    env: { ...process.env, XDG_CONFIG_HOME: join(profile, "config"), XDG_CACHE_HOME: join(profile, "cache") },
  });
  try {
    const tab = await browser.newPage({ viewport: { width: 420, height: 900 } });
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(String(error)));
    tab.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await tab.goto(`${origin}/?items=${ITEMS}`);
    await tab.waitForFunction(() => window.__bench.firstRowsAt > 0, undefined, { timeout: 30_000 });
    await tab.waitForTimeout(1000);
    const load = await tab.evaluate(() => ({
      snapshotToFirstRowsMs: window.__bench.firstRowsAt - window.__bench.readyAt,
      rows: document.querySelectorAll(".row").length,
    }));

    // Chromium's own counters of main-thread work (script, layout, style), read before and after each phase.
    const cdp = await tab.context().newCDPSession(tab);
    await cdp.send("Performance.enable");
    const busy: Record<string, MainThreadWork> = {};
    const measure = async <T>(phase: string, run: () => Promise<T>): Promise<T> => {
      await tab.evaluate((name) => (window.__bench.phase = name), phase);
      const before = await mainThreadCounters(cdp);
      const started = Date.now();
      const value = await run();
      busy[phase] = mainThreadWork(before, await mainThreadCounters(cdp), Date.now() - started);
      return value;
    };
    if (process.env.HERMES_BENCH_PROFILE) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
    }
    const streamed = await measure("stream", () =>
      tab.evaluate(([seconds, rate]) => window.__bench.stream(seconds, rate), [
        STREAM_SECONDS,
        TOKENS_PER_SECOND,
      ] as const),
    );
    const afterStream = await tab.evaluate(() => window.__bench.viewport());
    if (process.env.HERMES_BENCH_PROFILE) {
      const { profile } = (await cdp.send("Profiler.stop")) as { profile: unknown };
      writeFileSync(process.env.HERMES_BENCH_PROFILE, JSON.stringify(profile));
    }
    await tab.waitForTimeout(300);
    await measure("scroll", () => tab.evaluate(() => window.__bench.scroll(4, 120)));
    // The user scrolled up to read: a new reply streaming in must not move what they are reading.
    const beforeSecondStream = await tab.evaluate(() => window.__bench.viewport());
    await measure("reading", () =>
      tab.evaluate(([rate]) => window.__bench.stream(2, rate), [TOKENS_PER_SECOND] as const),
    );
    await tab.waitForTimeout(200);
    const afterSecondStream = await tab.evaluate(() => window.__bench.viewport());
    const checks = {
      followedTheStream: afterStream.atBottom,
      keptTheReadersPlace:
        beforeSecondStream.topItem === afterSecondStream.topItem &&
        Math.abs(beforeSecondStream.topOffset - afterSecondStream.topOffset) <= 1 &&
        !afterSecondStream.atBottom,
    };
    await tab.evaluate(() => (window.__bench.phase = "idle"));
    if (process.env.HERMES_BENCH_SCREENSHOT) await tab.screenshot({ path: process.env.HERMES_BENCH_SCREENSHOT });
    const result = await tab.evaluate(() => ({
      frames: window.__bench.frames,
      csp: window.__bench.cspViolations,
      rowsInDom: document.querySelectorAll(".row").length,
    }));

    const phases = Object.fromEntries(
      ["stream", "scroll", "reading"].map((phase) => [
        phase,
        { ...stats(result.frames[phase] ?? []), mainThread: busy[phase] },
      ]),
    );
    const report = {
      date: new Date().toISOString(),
      browser: `Chromium ${browser.version()} headless`,
      viewport: "420x900",
      items: ITEMS,
      tokensPerSecond: TOKENS_PER_SECOND,
      tokensStreamed: streamed,
      snapshotToFirstRowsMs: Number(load.snapshotToFirstRowsMs.toFixed(1)),
      rowsInDom: result.rowsInDom,
      checks,
      phases,
      cspViolations: result.csp,
      pageErrors: errors,
    };
    process.stdout.write(
      `chat view, ${ITEMS} items, ${streamed} tokens streamed in ${STREAM_SECONDS} s (${report.browser})\n`,
    );
    process.stdout.write(
      `snapshot → first rows: ${report.snapshotToFirstRowsMs} ms; rows in the DOM: ${result.rowsInDom} of ${ITEMS}\n`,
    );
    for (const [phase, s] of Object.entries(phases)) {
      process.stdout.write(
        `${phase.padEnd(7)} frames ${String(s.frames).padStart(4)}  p50 ${s.p50} ms  p95 ${s.p95} ms  p99 ${s.p99} ms  max ${s.max} ms  long (>${LONG_FRAME_MS} ms) ${s.longFrames}\n`,
      );
      const w = s.mainThread;
      if (w)
        process.stdout.write(
          `        main thread busy ${w.busyPercent}% of ${w.wallMs} ms (script ${w.scriptMs} ms, layout ${w.layoutMs} ms, style ${w.styleMs} ms)\n`,
        );
    }
    process.stdout.write(
      `end of stream in view while following: ${checks.followedTheStream}; reader's place kept while scrolled up: ${checks.keptTheReadersPlace}\n`,
    );
    if (result.csp.length) process.stdout.write(`CSP violations: ${result.csp.join("; ")}\n`);
    if (errors.length) process.stdout.write(`page errors: ${errors.join("; ")}\n`);
    mkdirSync(join(repo, "bench/results"), { recursive: true });
    writeFileSync(join(repo, "bench/results/webview-frames.json"), `${JSON.stringify(report, null, 2)}\n`);
    if (result.csp.length || errors.length || !checks.followedTheStream || !checks.keptTheReadersPlace)
      process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

interface MainThreadWork {
  readonly wallMs: number;
  readonly busyPercent: number;
  readonly scriptMs: number;
  readonly layoutMs: number;
  readonly styleMs: number;
}

async function mainThreadCounters(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** Chromium reports cumulative seconds; the difference over a phase is that phase's work. */
function mainThreadWork(before: Record<string, number>, after: Record<string, number>, wallMs: number): MainThreadWork {
  const ms = (name: string) => Math.round(((after[name] ?? 0) - (before[name] ?? 0)) * 1000);
  return {
    wallMs,
    busyPercent: Math.round((ms("TaskDuration") / wallMs) * 100),
    scriptMs: ms("ScriptDuration"),
    layoutMs: ms("LayoutDuration"),
    styleMs: ms("RecalcStyleDuration"),
  };
}

function safeRead(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:webview failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

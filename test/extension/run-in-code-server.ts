/**
 * Runs the extension integration suite (dist-test/extension/) inside real VS Code: code-server 4.100.3 serves the
 * workbench, headless Chromium (Debian's, driven by playwright-core) opens it, and the `payload` query parameter
 * loads this repository as the extension under development plus the suite as extensionTestsPath. The workbench
 * calls window.codeAutomationExit(code) when the suite's run() settles; that code is this process's exit code.
 *
 * Needs `bash scripts/e2e-setup.sh` (code-server and playwright-core live in a cache outside the repo) and the
 * bundles: `node esbuild.config.mjs && node scripts/build-extension-tests.mjs` (npm run test:extension does both).
 * Recipe: /work/shared/spec/testing-offline.md.
 *
 * Environment:
 *   HERMES_E2E_CACHE       where e2e-setup.sh installed (default ~/.cache/hermes-e2e)
 *   HERMES_E2E_TIMEOUT_MS  overall limit for the run (default 300000)
 *   HERMES_E2E_CHROMIUM    browser executable (default /usr/bin/chromium)
 *   HERMES_E2E_KEEP=1      keep the throwaway state folder even when the suite passes
 *   HERMES_*               all passed to code-server, whose extension host (and so the extension) inherits them
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { format } from "node:util";

// The few playwright-core shapes used here. playwright-core is installed in the e2e cache, not in node_modules
// (it is no project dependency), so its own typings are not visible to tsc.
interface JSHandle {
  jsonValue(): Promise<unknown>;
}
interface ConsoleMessage {
  type(): string;
  text(): string;
  args(): JSHandle[];
  location(): { url: string };
}
interface Page {
  exposeFunction(name: string, callback: (...args: unknown[]) => unknown): Promise<void>;
  on(event: "console", listener: (message: ConsoleMessage) => void): void;
  on(event: "pageerror", listener: (error: Error) => void): void;
  on(event: "crash", listener: () => void): void;
  goto(url: string, options: { waitUntil: "domcontentloaded"; timeout: number }): Promise<unknown>;
  screenshot(options: { path: string; fullPage: boolean; timeout: number }): Promise<unknown>;
}
interface BrowserContext {
  newPage(): Promise<Page>;
}
interface Browser {
  newContext(options: { viewport: { width: number; height: number } }): Promise<BrowserContext>;
  close(): Promise<void>;
}
interface PlaywrightCore {
  chromium: {
    launch(options: { executablePath: string; args: string[]; env: NodeJS.ProcessEnv; timeout: number }): Promise<Browser>;
  };
}
/** What the workbench hands to codeAutomationExit besides the code: the files of its logs folder. */
interface WorkbenchLog {
  relativePath: string;
  contents: string;
}

const repoRoot = resolve(__dirname, "../..");
const cacheRoot = process.env.HERMES_E2E_CACHE ?? join(homedir(), ".cache", "hermes-e2e");
const codeServerEntry = join(cacheRoot, "code-server/node_modules/code-server/out/node/entry.js");
const playwrightManifest = join(cacheRoot, "playwright/package.json");
const chromiumPath = process.env.HERMES_E2E_CHROMIUM ?? "/usr/bin/chromium";
const suiteEntry = join(repoRoot, "dist-test/extension/index.js");
const overallTimeoutMs = Number(process.env.HERMES_E2E_TIMEOUT_MS ?? 300_000);

// The recipe's flags: without the background-networking ones Chromium keeps dialling out on a closed network.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

const log = (message: string): void => {
  process.stdout.write(`[e2e] ${message}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function checkPrerequisites(): void {
  const missing: string[] = [];
  if (!existsSync(codeServerEntry)) missing.push(`code-server (${codeServerEntry}): run npm run e2e:setup`);
  if (!existsSync(playwrightManifest)) missing.push(`playwright-core (${dirname(playwrightManifest)}): run npm run e2e:setup`);
  if (!existsSync(chromiumPath)) missing.push(`chromium (${chromiumPath}): run npm run e2e:setup`);
  if (!existsSync(join(repoRoot, "dist/extension.js"))) missing.push("dist/extension.js: run node esbuild.config.mjs");
  if (!existsSync(suiteEntry)) missing.push(`${suiteEntry}: run node scripts/build-extension-tests.mjs`);
  if (missing.length > 0) {
    for (const item of missing) log(`missing ${item}`);
    process.exit(2);
  }
}

/** A throwaway folder for everything code-server and Chromium would otherwise write under $HOME. */
function makeState(): { root: string; workspace: string; userData: string; extensions: string; home: string } {
  // realpath: VS Code reports workspace paths resolved, and the test compares against this one.
  const root = realpathSync(mkdtempSync(join(tmpdir(), "hermes-e2e-")));
  const dirs = {
    root,
    workspace: join(root, "ws"),
    userData: join(root, "user"),
    extensions: join(root, "ext"),
    home: join(root, "home"),
  };
  for (const dir of [dirs.workspace, join(dirs.userData, "User"), dirs.extensions, dirs.home]) mkdirSync(dir, { recursive: true });
  // No Welcome page (its webview would only slow the start) and no trust prompt over the workspace.
  writeFileSync(
    join(dirs.userData, "User/settings.json"),
    `${JSON.stringify({ "workbench.startupEditor": "none", "security.workspace.trust.enabled": false }, null, 2)}\n`,
  );
  writeFileSync(join(dirs.workspace, "README.md"), "# Hermes e2e workspace\n\nA throwaway folder opened by run-in-code-server.ts.\n");
  return dirs;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? done(port) : fail(new Error("no free port"))));
    });
  });
}

/**
 * code-server's environment is the extension host's: a short allow-list (no npm_* or VSCODE_* of an outer editor,
 * which would confuse it) plus every HERMES_* variable, with HOME and the XDG folders pointed into the state folder.
 */
function codeServerEnv(state: ReturnType<typeof makeState>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("HERMES_") || ["PATH", "LANG", "TZ", "TMPDIR"].includes(key) || key.startsWith("LC_")) env[key] = value;
  }
  return {
    ...env,
    HOME: state.home,
    XDG_CONFIG_HOME: join(state.root, "xdg-config"),
    XDG_DATA_HOME: join(state.root, "xdg-data"),
    XDG_CACHE_HOME: join(state.root, "xdg-cache"),
    HERMES_E2E_WORKSPACE: state.workspace,
    // No extension gallery: code-server's default (open-vsx.org) is unreachable offline and only adds errors to the log.
    EXTENSIONS_GALLERY: "{}",
  };
}

interface CodeServer {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

async function startCodeServer(state: ReturnType<typeof makeState>, logFile: string): Promise<CodeServer> {
  // The free port is only free until code-server binds it: another process may take it first, so retry.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const out = openSync(logFile, "a");
    const child = spawn(
      process.execPath,
      [
        codeServerEntry,
        "--bind-addr", `127.0.0.1:${port}`,
        "--auth", "none",
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        "--user-data-dir", state.userData,
        "--extensions-dir", state.extensions,
        state.workspace,
      ],
      // Its own process group, so that stopping it also stops the extension host and pty host it forks.
      { cwd: state.root, env: codeServerEnv(state), stdio: ["ignore", out, out], detached: true },
    );
    closeSync(out);
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const healthy = await waitForHealth(port, exited);
    if (healthy) return { port, child, exited };
    stopCodeServer(child);
    await Promise.race([exited, sleep(5_000)]);
    if (attempt === 3) throw new Error(`code-server did not become healthy; its output is in ${logFile}`);
    log(`code-server did not start on port ${port}, retrying`);
  }
}

async function waitForHealth(port: number, exited: Promise<number | null>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 90_000;
  while (!gone && Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  return false;
}

function stopCodeServer(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

async function stopCodeServerAndWait(server: CodeServer): Promise<void> {
  stopCodeServer(server.child);
  const stopped = await Promise.race([server.exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!stopped && server.child.pid !== undefined) {
    try {
      process.kill(-server.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Renders a console message as a line. The workbench's log service, which also carries the extension host's console
 * in a test run, logs ("%c INFO", "color: #33f", format, ...args): drop the CSS arguments and format the rest the way
 * Node's console would. INFO lines are printed bare, so that the suite's output (its closing "N passed, N failed"
 * line above all) starts its line as it would in a terminal; other levels keep their label. Messages of the browser
 * itself (failed resource loads, say) are marked [browser].
 */
async function renderConsoleMessage(message: ConsoleMessage): Promise<string> {
  const kind = message.type();
  let values: unknown[] = [];
  try {
    values = await Promise.all(message.args().map((arg) => arg.jsonValue()));
  } catch {
    // An argument the page cannot serialise: fall back to Chromium's own rendering below.
  }
  const [first, ...rest] = values;
  if (typeof first === "string" && first.startsWith("%c")) {
    const styleCount = first.split("%c").length - 1;
    const label = first.replace(/%c/g, "").trim();
    const body = format(...rest.slice(styleCount));
    return label === "INFO" || label === "" ? body : `[${label}] ${body}`;
  }
  if (values.length === 0) {
    // Chromium's rendering joins the arguments, CSS included: "%c INFO color: #33f message".
    const styled = /^%c\s*(\w*)\s+color:\s*#[0-9a-f]+\s?([\s\S]*)$/i.exec(message.text());
    if (styled) return styled[1] === "INFO" ? styled[2] : `[${styled[1]}] ${styled[2]}`;
  }
  let text = values.length > 0 ? format(...values) : message.text();
  // Chromium does not say which resource failed; its location does (vsda's 404s are expected: code-server lacks it).
  if (text.startsWith("Failed to load resource")) text += ` ${message.location().url}`;
  return `[browser${kind === "log" || kind === "info" ? "" : ` ${kind}`}] ${text}`;
}

function isWorkbenchLogs(value: unknown): value is WorkbenchLog[] {
  return (
    Array.isArray(value) &&
    value.every((item: unknown) => typeof item === "object" && item !== null && "relativePath" in item && "contents" in item)
  );
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no output)";
  }
}

async function main(): Promise<number> {
  checkPrerequisites();
  const started = Date.now();
  const state = makeState();
  const codeServerLog = join(state.root, "code-server.log");
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let workbenchLogs: WorkbenchLog[] = [];
  let exitCode = 1;

  // Ctrl-C or a CI cancel must not leave code-server behind.
  const onSignal = (): void => {
    if (server) stopCodeServer(server.child);
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    server = await startCodeServer(state, codeServerLog);
    const port = server.port;
    log(`code-server on 127.0.0.1:${port} after ${Date.now() - started} ms (state: ${state.root})`);

    const playwright = createRequire(playwrightManifest)("playwright-core") as PlaywrightCore;
    browser = await playwright.chromium.launch({
      executablePath: chromiumPath,
      args: CHROMIUM_ARGS,
      env: { ...process.env, HOME: state.home, XDG_CONFIG_HOME: join(state.root, "browser-config"), XDG_CACHE_HOME: join(state.root, "browser-cache") },
      timeout: 60_000,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();

    let settle: (code: number) => void = () => {};
    const suiteExit = new Promise<number>((done) => (settle = done));
    await page.exposeFunction("codeAutomationExit", (code: unknown, logs: unknown) => {
      if (isWorkbenchLogs(logs)) workbenchLogs = logs;
      settle(typeof code === "number" ? code : 1);
    });

    // Printed in arrival order: rendering a message is asynchronous (its arguments come from the page).
    // What the workbench logs after the suite has settled (shutdown chatter) is left out.
    let printing = Promise.resolve();
    let settled = false;
    void suiteExit.then(() => (settled = true));
    page.on("console", (message) => {
      if (settled) return;
      const rendered = renderConsoleMessage(message);
      printing = printing.then(async () => {
        process.stdout.write(`${await rendered}\n`);
      });
    });
    page.on("pageerror", (error) => process.stdout.write(`[browser pageerror] ${error.message}\n`));
    page.on("crash", () => {
      log("the workbench page crashed");
      settle(1);
    });

    const remote = `vscode-remote://127.0.0.1:${port}`;
    const payload = JSON.stringify([
      ["extensionDevelopmentPath", remote + repoRoot],
      ["extensionTestsPath", remote + suiteEntry],
    ]);
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(state.workspace)}&payload=${encodeURIComponent(payload)}`;
    const remaining = (): number => Math.max(1_000, overallTimeoutMs - (Date.now() - started));
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: remaining() });
    log(`workbench loading, suite ${suiteEntry}`);

    const timedOut = sleep(remaining()).then(() => "timeout" as const);
    const serverGone = server.exited.then((code) => ({ serverExit: code }));
    const outcome = await Promise.race([suiteExit, timedOut, serverGone]);
    await printing;
    if (outcome === "timeout") {
      log(`timed out after ${overallTimeoutMs} ms without codeAutomationExit`);
    } else if (typeof outcome === "object") {
      log(`code-server exited (${outcome.serverExit}) before the suite finished`);
    } else {
      exitCode = outcome;
      log(`suite exited with ${exitCode} after ${Date.now() - started} ms`);
    }
  } catch (error) {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    if (exitCode !== 0) {
      const failureDir = join(state.root, "failure");
      mkdirSync(failureDir, { recursive: true });
      if (page) {
        const screenshot = join(failureDir, "screenshot.png");
        try {
          await page.screenshot({ path: screenshot, fullPage: true, timeout: 15_000 });
          log(`screenshot: ${screenshot}`);
        } catch (error) {
          log(`no screenshot: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      for (const entry of workbenchLogs) {
        const target = join(failureDir, "workbench-logs", entry.relativePath);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, entry.contents);
      }
      log(`code-server output (last lines of ${codeServerLog}):\n${tail(codeServerLog, 30)}`);
      log(`kept for inspection: ${state.root} (code-server logs under user/logs, extension host logs among them)`);
    }
    await browser?.close().catch(() => undefined);
    if (server) await stopCodeServerAndWait(server);
    if (exitCode === 0 && process.env.HERMES_E2E_KEEP !== "1") rmSync(state.root, { recursive: true, force: true });
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

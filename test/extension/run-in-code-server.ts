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
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { format } from "node:util";
import type { Browser, ConsoleMessage, Page } from "playwright-core";
import {
  type CodeServer,
  launchChromium,
  makeState,
  missingPrerequisites,
  repoRoot,
  sleep,
  startCodeServer,
  stopCodeServer,
  stopCodeServerAndWait,
  workbenchUrl,
} from "../helpers/code-server.js";

/** What the workbench hands to codeAutomationExit besides the code: the files of its logs folder. */
interface WorkbenchLog {
  relativePath: string;
  contents: string;
}

const suiteEntry = join(repoRoot, "dist-test/extension/index.js");
const overallTimeoutMs = Number(process.env.HERMES_E2E_TIMEOUT_MS ?? 300_000);

const log = (message: string): void => {
  process.stdout.write(`[e2e] ${message}\n`);
};

function checkPrerequisites(): void {
  const missing = missingPrerequisites();
  if (!existsSync(suiteEntry)) missing.push(`${suiteEntry}: run node scripts/build-extension-tests.mjs`);
  if (missing.length > 0) {
    for (const item of missing) log(`missing ${item}`);
    process.exit(2);
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
    value.every(
      (item: unknown) => typeof item === "object" && item !== null && "relativePath" in item && "contents" in item,
    )
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
    server = await startCodeServer(state, codeServerLog, log);
    const port = server.port;
    log(`code-server on 127.0.0.1:${port} after ${Date.now() - started} ms (state: ${state.root})`);

    browser = await launchChromium(state);
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

    const url = workbenchUrl(port, state, suiteEntry);
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

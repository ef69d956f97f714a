/**
 * Real VS Code for the tests that need it: code-server 4.100.3 (installed by scripts/e2e-setup.sh into a cache outside
 * the repository) in a throwaway state folder, and Debian's headless Chromium driven by playwright-core. Shared by the
 * extension suite runner (test/extension/run-in-code-server.ts) and the chat view's end-to-end test (test/e2e/).
 * Recipe: /work/shared/spec/testing-offline.md.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Browser, chromium } from "playwright-core";

export const repoRoot = resolve(__dirname, "../..");
const cacheRoot = process.env.HERMES_E2E_CACHE ?? join(homedir(), ".cache", "hermes-e2e");
export const codeServerEntry = join(cacheRoot, "code-server/node_modules/code-server/out/node/entry.js");
export const chromiumPath = process.env.HERMES_E2E_CHROMIUM ?? "/usr/bin/chromium";

// The recipe's flags: without the background-networking ones Chromium keeps dialling out on a closed network.
export const CHROMIUM_ARGS = [
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

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** What is missing to run real VS Code here, as lines for the user (empty when all is there). */
export function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!existsSync(codeServerEntry)) missing.push(`code-server (${codeServerEntry}): run npm run e2e:setup`);
  if (!existsSync(chromiumPath)) missing.push(`chromium (${chromiumPath}): run npm run e2e:setup`);
  if (!existsSync(join(repoRoot, "dist/extension.js"))) missing.push("dist/extension.js: run node esbuild.config.mjs");
  return missing;
}

/** A throwaway folder for everything code-server and Chromium would otherwise write under $HOME. */
export type CodeServerState = ReturnType<typeof makeState>;

export function makeState(): { root: string; workspace: string; userData: string; extensions: string; home: string } {
  // realpath: VS Code reports workspace paths resolved, and the test compares against this one.
  const root = realpathSync(mkdtempSync(join(tmpdir(), "hermes-e2e-")));
  const dirs = {
    root,
    workspace: join(root, "ws"),
    userData: join(root, "user"),
    extensions: join(root, "ext"),
    home: join(root, "home"),
  };
  for (const dir of [dirs.workspace, join(dirs.userData, "User"), dirs.extensions, dirs.home])
    mkdirSync(dir, { recursive: true });
  // No Welcome page (its webview would only slow the start) and no trust prompt over the workspace.
  writeFileSync(
    join(dirs.userData, "User/settings.json"),
    `${JSON.stringify({ "workbench.startupEditor": "none", "security.workspace.trust.enabled": false }, null, 2)}\n`,
  );
  writeFileSync(
    join(dirs.workspace, "README.md"),
    "# Hermes e2e workspace\n\nA throwaway folder opened by run-in-code-server.ts.\n",
  );
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
function codeServerEnv(state: CodeServerState): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("HERMES_") || ["PATH", "LANG", "TZ", "TMPDIR"].includes(key) || key.startsWith("LC_"))
      env[key] = value;
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

export interface CodeServer {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export async function startCodeServer(
  state: CodeServerState,
  logFile: string,
  log: (message: string) => void,
): Promise<CodeServer> {
  // The free port is only free until code-server binds it: another process may take it first, so retry.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const out = openSync(logFile, "a");
    const child = spawn(
      process.execPath,
      [
        codeServerEntry,
        "--bind-addr",
        `127.0.0.1:${port}`,
        "--auth",
        "none",
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        "--user-data-dir",
        state.userData,
        "--extensions-dir",
        state.extensions,
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

export function stopCodeServer(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

export async function stopCodeServerAndWait(server: CodeServer): Promise<void> {
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

/** Debian's Chromium, headless, with its profile and caches inside the state folder. */
export function launchChromium(state: CodeServerState): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: CHROMIUM_ARGS,
    env: {
      ...process.env,
      HOME: state.home,
      XDG_CONFIG_HOME: join(state.root, "browser-config"),
      XDG_CACHE_HOME: join(state.root, "browser-cache"),
    },
    timeout: 60_000,
  });
}

/** The workbench URL with this repository as the extension under development (and a test entry, when given). */
export function workbenchUrl(port: number, state: CodeServerState, extensionTestsPath?: string): string {
  const remote = `vscode-remote://127.0.0.1:${port}`;
  const payload = JSON.stringify([
    ["extensionDevelopmentPath", remote + repoRoot],
    ...(extensionTestsPath ? [["extensionTestsPath", remote + extensionTestsPath]] : []),
  ]);
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(state.workspace)}&payload=${encodeURIComponent(payload)}`;
}

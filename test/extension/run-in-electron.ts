/**
 * Runs the extension integration suite (dist-test/extension/) under @vscode/test-electron: the desktop VS Code that
 * the package downloads (1.100.3 by default, the release code-server 4.100.3 is built on). Use it wherever VS Code
 * can be downloaded; on this project's CI machine nothing but npm and Debian is reachable, so CI runs the same suite
 * in code-server instead (run-in-code-server.ts).
 *
 *   npm run test:extension:electron            (builds the bundles first)
 *
 * Environment: HERMES_VSCODE_VERSION (default 1.100.3), HERMES_* (passed on to the extension host).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runTests } from "@vscode/test-electron";

const repoRoot = resolve(__dirname, "../..");

async function main(): Promise<number> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "hermes-electron-")));
  const workspace = join(root, "ws");
  const userData = join(root, "user-data");
  mkdirSync(join(userData, "User"), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(
    join(userData, "User", "settings.json"),
    JSON.stringify({ "workbench.startupEditor": "none", "security.workspace.trust.enabled": false }),
  );
  writeFileSync(join(workspace, "README.md"), "# Hermes e2e workspace\n");
  try {
    await runTests({
      version: process.env.HERMES_VSCODE_VERSION ?? "1.100.3",
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: join(repoRoot, "dist-test/extension/index.js"),
      launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust", `--user-data-dir=${userData}`],
      extensionTestsEnv: { HERMES_E2E_WORKSPACE: workspace },
    });
    return 0;
  } catch (error) {
    process.stderr.write(`extension suite failed under @vscode/test-electron: ${(error as Error).message}\n`);
    return 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));

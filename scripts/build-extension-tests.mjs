// Builds the extension integration suite into dist-test/extension/: index.js (the mocha entry VS Code's extension
// host calls through extensionTestsPath) and one <name>.test.js per test/extension/suite/<name>.test.ts.
// The extension host loads these with require(), so they are CommonJS bundles. `vscode` is provided by the host;
// `mocha` stays external so that index.js and the test files share the one instance that defines describe/it.
// Kept apart from esbuild.config.mjs: tests never ship in the .vsix.

import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const suiteDir = join(repoRoot, "test/extension/suite");
const outdir = join(repoRoot, "dist-test/extension");

const tests = readdirSync(suiteDir)
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => join(suiteDir, name));

// A test file deleted from the source must not keep running from a stale bundle.
rmSync(outdir, { recursive: true, force: true });

await esbuild.build({
  entryPoints: [join(suiteDir, "index.ts"), ...tests],
  outdir,
  outbase: suiteDir,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  external: ["vscode", "mocha"],
  // Not minified, so stack traces (which the extension host does not map back to .ts: it installs its own
  // Error.prepareStackTrace) stay readable; the maps serve a debugger attached to the extension host.
  sourcemap: "linked",
  logLevel: "warning",
});
process.stderr.write(`build-extension-tests: ${tests.length} test file(s) -> ${outdir}\n`);

/**
 * The integration suite's entry point: VS Code's extension host (code-server here, @vscode/test-electron where a VS Code
 * download is possible) requires this file through extensionTestsPath and calls `run()`. It resolves when every test
 * passed and rejects otherwise, which the workbench turns into the exit code (codeAutomationExit in a browser).
 * Bundled to dist-test/extension/index.js by scripts/build-extension-tests.mjs; the tests are the *.test.js next to it.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type MochaClass from "mocha";

type MochaConstructor = typeof MochaClass;

function loadMocha(): MochaConstructor {
  // mocha 11 exports the class itself; mocha 12 (ESM-only, required through Node's require(esm)) exports a namespace.
  const loaded = require("mocha") as MochaConstructor | { Mocha: MochaConstructor };
  return typeof loaded === "function" ? loaded : loaded.Mocha;
}

export async function run(): Promise<void> {
  const Mocha = loadMocha();
  // No colours: the output travels through the browser console into a CI log. Generous timeout: the machine is shared.
  const mocha = new Mocha({ ui: "bdd", reporter: "spec", color: false, timeout: 60_000 });

  const files = readdirSync(__dirname)
    .filter((name) => name.endsWith(".test.js"))
    .sort();
  if (files.length === 0) throw new Error(`no *.test.js files next to ${__dirname}`);
  // mocha.run() require()s them after installing the bdd globals (describe, it) they use.
  for (const name of files) mocha.addFile(join(__dirname, name));

  await new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats;
      const passed = stats?.passes ?? 0;
      const skipped = stats?.pending ?? 0;
      // The closing line CI reads, in the same form as test/helpers/summary-reporter.cjs. console.log, not
      // process.stdout: only the console is forwarded from the extension host to the runner.
      console.log(`${passed} passed, ${failures} failed, ${skipped} skipped`);
      if (failures > 0) reject(new Error(`${failures} extension test(s) failed`));
      else resolve();
    });
  });
}
